import {h, get, post, time, duration, badge, field, notice, noticeAfterChange, append, formatter} from './lib.js';
import {spans} from './charts.js';
import {can} from './app.js';
import {executionActions} from './actions.js';


function clockSeconds(ms) {
    return formatter('seconds').format(new Date(ms));
}

// an attempt in one of these states has not ended: its page follows it until it has
const LIVE = ['SCHEDULED', 'RETRY_SCHEDULED', 'RUNNING'];

export async function execution(view, {args, refresh}) {
    const d = await get('/executions/' + args[0]);
    const e = d.execution;
    // a node of an earlier version gives the last letter alone
    const letters = d.deadLetters || (d.deadLetter ? [d.deadLetter] : []);
    const letter = d.deadLetter;
    const log = d.log;
    const zone = d.zone;
    const now = Date.now();
    append(view, [
        h('p', {class: 'crumbs'}, h('a', {href: '#/jobs'}, 'Jobs'), ' / ',
            h('a', {href: '#/jobs/' + encodeURIComponent(e.jobName)}, e.jobName), ' / '),
        h('h1', {}, `Execution #${e.id}`),
        triage(e, d.attempts, log, zone, view),
        LIVE.includes(e.status) ? h('p', {class: 'muted', 'data-live': e.status},
            'This attempt has not ended: the page follows it.') : null,
        executionActions(e, refresh),
        d.valuesMasked ? h('p', {class: 'muted', 'data-masked': ''}, 'The payload, stack trace and log lines are masked.') : null,
        h('dl', {class: 'facts'},
            fact('Job', h('a', {href: '#/jobs/' + encodeURIComponent(e.jobName)}, e.jobName)),
            fact('State', badge(e.status)),
            fact('Attempt', e.attempt),
            fact('Origin', e.origin),
            replayOf(e, letters),
            fact('Node', e.nodeId),
            fact('Scheduled for', time(e.scheduledAt, zone)),
            fact('Started', time(e.startedAt, zone)),
            fact('Finished', time(e.finishedAt, zone)),
            fact('Duration', ran(e) && e.finishedAt ? duration(new Date(e.finishedAt) - new Date(e.startedAt)) : '—'),
            fact('Idempotency key', h('code', {}, e.idempotencyKey)),
            e.priority ? fact('Priority', e.priority) : null,
            e.limitKey !== null && e.limitKey !== undefined ? fact('Limit key', h('code', {}, e.limitKey === '' ? '(empty)' : e.limitKey)) : null,
            e.statusReason ? fact('Reason', e.statusReason) : null,
            d.waitingFor ? fact('Waiting for', h('span', {'data-waiting-for': ''}, d.waitingFor, ' (', h('a', {href: '#/limits'}, 'limits'), ')')) : null),
        h('section', {'aria-labelledby': 'attempts-h'},
            h('h2', {id: 'attempts-h'}, 'Attempts at this fire'),
            spans('Attempts at this fire on a time line', d.attempts.map((a) => ({
                // an attempt that never ran is a mark at the time it was due
                start: ran(a) ? new Date(a.startedAt).getTime() : new Date(a.dueAt || a.startedAt).getTime(),
                end: !ran(a) ? new Date(a.dueAt || a.startedAt).getTime()
                    : a.finishedAt ? new Date(a.finishedAt).getTime() : Math.max(now, new Date(a.startedAt).getTime() + 1),
                label: `Attempt ${a.attempt}`,
                note: a.status + (ran(a) && a.finishedAt ? ' · ' + duration(new Date(a.finishedAt) - new Date(a.startedAt)) : ''),
                cls: a.status === 'SUCCEEDED' ? 'bar-ok' : (a.status === 'RUNNING' ? '' : 'bar-bad'),
                tip: `Attempt ${a.attempt}: ${a.status}`})), clockSeconds),
            h('ol', {class: 'attempts'}, d.attempts.map((a) => h('li', {class: a.id === e.id ? 'current' : null},
                h('a', {href: '#/executions/' + a.id}, `Attempt ${a.attempt}`), ' ', badge(a.status), ' ',
                time(a.startedAt, zone), ran(a) && a.finishedAt ? ` · ${duration(new Date(a.finishedAt) - new Date(a.startedAt))}` : '',
                ` · ${a.origin} on ${a.nodeId}`,
                a.errorClass && failed(a) ? h('div', {class: 'muted small'}, a.errorClass + ': ' + (a.errorMessage || '')) : null)))),
        failure(e, letter, letters, log),
        letters.length ? deadLetters(letters, d.attempts, zone, refresh) : null,
        logLines(log),
        e.payload ? h('section', {'aria-labelledby': 'payload-h'}, h('h2', {id: 'payload-h'}, 'Payload'), h('pre', {class: 'payload'}, e.payload)) : null]);
    if (LIVE.includes(e.status)) follow(view, e, JSON.stringify(d), refresh);
}

// reads the attempt again until it ends, as long as its page is shown: soon while it runs or is
// about to, seldom while it waits for a later time. The page is drawn anew only when what it
// shows changed, so that the focus, a selection or a closed stack trace stays meanwhile; a read
// that fails keeps the page and tries again later
function follow(view, e, shown, refresh, failures = 0) {
    const due = new Date(e.dueAt || e.scheduledAt).getTime();
    const wait = (e.status !== 'RUNNING' && due - Date.now() > 60000 ? 30000 : 1500) * Math.min(2 ** failures, 16);
    setTimeout(async () => {
        if (!view.isConnected) return;
        try {
            const now = await get('/executions/' + e.id);
            if (!view.isConnected) return;
            if (JSON.stringify(now) !== shown) refresh({keepNotice: true});
            else follow(view, e, shown, refresh);
        } catch (error) {
            follow(view, e, shown, refresh, failures + 1);
        }
    }, wait);
}

// an attempt that ended without success: its error is its own
function failed(a) {
    return ran(a) && !['RUNNING', 'SUCCEEDED'].includes(a.status);
}

// what an operator reads first: what failed, where, when, after how many attempts, and the way to
// the stack trace and the log lines further down
function triage(e, attempts, log, zone, view) {
    if (!failed(e) || !e.errorClass) return null;
    const first = (e.errorMessage || '').split('\n')[0];
    const jump = (label, target) => h('a', {href: '#/executions/' + e.id, 'data-jump': target,
        onclick: (event) => {
            event.preventDefault();
            const section = view.querySelector('#' + target);
            if (section) section.scrollIntoView();
        }}, label);
    return h('section', {class: 'triage', 'aria-label': 'What happened'},
        h('p', {}, badge(e.status), ' ', h('code', {}, e.errorClass), first ? ': ' + first : ''),
        h('p', {class: 'muted'}, `Attempt ${e.attempt} of ${attempts.length} at this fire, on node ${e.nodeId || 'unknown'}, `,
            'failed ', time(e.finishedAt || e.startedAt, zone), '.'),
        h('p', {}, 'Go to: ', jump('the stack trace', 'error-h'), ' · ',
            jump(log && log.lines.length ? `the ${log.lines.length} log line(s)` : 'the log', 'log-h')));
}

// the dead letter whose replay this attempt is, linked to the attempt it holds
function replayOf(e, letters) {
    if (e.origin !== 'REPLAY') return null;
    const replayed = letters.filter((l) => l.status === 'REPLAYED' && l.executionId < e.id).pop();
    if (!replayed) return null;
    return fact('Replay of', h('a', {href: '#/executions/' + replayed.executionId, 'data-replay-of': replayed.id},
        `dead letter #${replayed.id}, held by execution #${replayed.executionId}`));
}

// a waiting attempt's startedAt is when it was scheduled, and a cancelled one never ran
function ran(attempt) {
    return !['SCHEDULED', 'RETRY_SCHEDULED', 'CANCELLED'].includes(attempt.status);
}

function fact(term, value) {
    return [h('dt', {}, term), h('dd', {}, value)];
}

function failure(e, letter, letters, log) {
    if (failed(e) && e.errorClass) {
        const own = letters.find((l) => l.executionId === e.id);
        return errorSection('Error', null, e.errorClass, e.errorMessage, (log && log.stackTrace) || (own ? own.stackTrace : null));
    }
    // an attempt that has not failed (a retry or a replay that waits or runs) shows the error of
    // the attempt that failed last, labelled as that attempt's
    if (letter && letter.errorClass && letter.executionId !== e.id) {
        return errorSection('The last failed attempt\'s error', h('p', {class: 'muted', 'data-inherited': letter.executionId},
            'Not this attempt\'s: the error of ', h('a', {href: '#/executions/' + letter.executionId}, `execution #${letter.executionId}`),
            `, which dead letter #${letter.id} holds.`), letter.errorClass, letter.errorMessage, letter.stackTrace);
    }
    return null;
}

function errorSection(heading, origin, errorClass, message, stack) {
    return h('section', {'aria-labelledby': 'error-h'},
        h('h2', {id: 'error-h'}, heading),
        origin,
        h('p', {}, h('code', {class: 'error-class'}, errorClass)),
        h('pre', {class: 'error-message'}, message || ''),
        stack ? h('details', {open: true}, h('summary', {}, 'Stack trace'), h('pre', {class: 'stack'}, stack)) : null);
}

function logLines(log) {
    return h('section', {'aria-labelledby': 'log-h'},
        h('h2', {id: 'log-h'}, 'Log'),
        log && log.lines.length
            ? h('pre', {class: 'log'}, log.lines.map((line) => h('span', {class: 'log-line'}, line + '\n')))
            : h('p', {class: 'muted'}, 'No captured log lines.'),
        log && log.truncated ? h('p', {class: 'muted'}, 'The log was longer; its first part is kept.') : null);
}

// the fire's dead letters, oldest first: each replayed one links the attempt its replay began, and
// each one after the first is the end of the replay of the one before; the last one, if open, can
// be replayed or discarded
function deadLetters(letters, attempts, zone, refresh) {
    const last = letters[letters.length - 1];
    const section = h('section', {'aria-labelledby': 'letter-h'},
        h('h2', {id: 'letter-h'}, letters.length > 1 ? 'Dead letters' : 'Dead letter'),
        h('ol', {class: 'letters'}, letters.map((letter, i) => h('li', {'data-letter': letter.id},
            badge(letter.status), ` #${letter.id} after ${letter.attempts} attempts, last failed `, time(letter.lastFailedAt, zone),
            ` on ${letter.nodeId || 'an unknown node'}, held by `,
            h('a', {href: '#/executions/' + letter.executionId}, `execution #${letter.executionId}`),
            i > 0 ? ` · the end of the replay of dead letter #${letters[i - 1].id}` : '',
            letter.actedBy ? ` · ${letter.status.toLowerCase()} by ${letter.actedBy}` : '',
            letter.actedReason ? `: ${letter.actedReason}` : '',
            replayLink(letter, attempts)))));
    if (last.status === 'OPEN' && can('operator')) section.append(letterActions(last, refresh));
    return section;
}

function replayLink(letter, attempts) {
    if (letter.status !== 'REPLAYED') return null;
    const replay = attempts.find((a) => a.origin === 'REPLAY' && a.id > letter.executionId);
    return replay ? [' · replayed as ', h('a', {href: '#/executions/' + replay.id, 'data-replay': replay.id},
        `execution #${replay.id}`), ' (', badge(replay.status), ')'] : null;
}

function letterActions(letter, refresh) {
    const reason = h('input', {type: 'text', id: 'letter-reason', autocomplete: 'off'});
    const act = async (action) => {
        try {
            const done = await post(`/dead-letters/${letter.id}/${action}`, {reason: reason.value});
            const replay = done.after && done.after.replays && done.after.replays[letter.id];
            if (replay) {
                // the new attempt's page follows it; the notice goes along
                noticeAfterChange(`Replayed dead letter #${letter.id}: execution #${replay} runs it again`, 'ok');
                location.hash = '#/executions/' + replay;
            } else {
                await refresh();
                notice(action === 'replay' ? `Replayed dead letter #${letter.id}` : `Discarded dead letter #${letter.id}`, 'ok');
            }
        } catch (error) {
            notice(`Could not ${action} dead letter #${letter.id}: ${error.message}`, 'error');
        }
    };
    return h('form', {class: 'row', onsubmit: (e) => e.preventDefault()},
        field('Reason', reason),
        h('button', {type: 'button', 'data-action': 'replay', onclick: () => act('replay')}, 'Replay'),
        h('button', {type: 'button', 'data-action': 'discard', class: 'danger', onclick: () => act('discard')}, 'Discard'));
}
