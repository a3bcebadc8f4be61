import {h, get, post, time, duration, badge, field, notice, append, formatter} from './lib.js';
import {spans} from './charts.js';
import {can} from './app.js';
import {executionActions} from './actions.js';


function clockSeconds(ms) {
    return formatter('seconds').format(new Date(ms));
}

export async function execution(view, {args, refresh}) {
    const d = await get('/executions/' + args[0]);
    const e = d.execution;
    const letter = d.deadLetter;
    const log = d.log;
    const zone = d.zone;
    const now = Date.now();
    append(view, [
        h('p', {class: 'crumbs'}, h('a', {href: '#/jobs'}, 'Jobs'), ' / ',
            h('a', {href: '#/jobs/' + encodeURIComponent(e.jobName)}, e.jobName), ' / '),
        h('h1', {}, `Execution #${e.id}`),
        executionActions(e, refresh),
        d.valuesMasked ? h('p', {class: 'muted', 'data-masked': ''}, 'The payload, stack trace and log lines are masked.') : null,
        h('dl', {class: 'facts'},
            fact('Job', h('a', {href: '#/jobs/' + encodeURIComponent(e.jobName)}, e.jobName)),
            fact('State', badge(e.status)),
            fact('Attempt', e.attempt),
            fact('Origin', e.origin),
            fact('Node', e.nodeId),
            fact('Scheduled for', time(e.scheduledAt, zone)),
            fact('Started', time(e.startedAt, zone)),
            fact('Finished', time(e.finishedAt, zone)),
            fact('Duration', ran(e) && e.finishedAt ? duration(new Date(e.finishedAt) - new Date(e.startedAt)) : '—'),
            fact('Idempotency key', h('code', {}, e.idempotencyKey)),
            e.statusReason ? fact('Reason', e.statusReason) : null),
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
                a.errorClass ? h('div', {class: 'muted small'}, a.errorClass + ': ' + (a.errorMessage || '')) : null)))),
        failure(e, letter, log),
        letter ? deadLetter(letter, zone, refresh) : null,
        logLines(log),
        e.payload ? h('section', {'aria-labelledby': 'payload-h'}, h('h2', {id: 'payload-h'}, 'Payload'), h('pre', {class: 'payload'}, e.payload)) : null]);
}

// a waiting attempt's startedAt is when it was scheduled, and a cancelled one never ran
function ran(attempt) {
    return !['SCHEDULED', 'RETRY_SCHEDULED', 'CANCELLED'].includes(attempt.status);
}

function fact(term, value) {
    return [h('dt', {}, term), h('dd', {}, value)];
}

function failure(e, letter, log) {
    const errorClass = e.errorClass || (letter && letter.errorClass);
    if (!errorClass) return null;
    const stack = (log && log.stackTrace) || (letter && letter.stackTrace);
    return h('section', {'aria-labelledby': 'error-h'},
        h('h2', {id: 'error-h'}, 'Error'),
        h('p', {}, h('code', {class: 'error-class'}, errorClass)),
        h('pre', {class: 'error-message'}, e.errorMessage || (letter && letter.errorMessage) || ''),
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

function deadLetter(letter, zone, refresh) {
    const section = h('section', {'aria-labelledby': 'letter-h'},
        h('h2', {id: 'letter-h'}, 'Dead letter'),
        h('p', {}, badge(letter.status), ` #${letter.id} after ${letter.attempts} attempts, last failed `, time(letter.lastFailedAt, zone),
            letter.actedBy ? ` · ${letter.status.toLowerCase()} by ${letter.actedBy}` : '',
            letter.actedReason ? `: ${letter.actedReason}` : ''));
    if (letter.status === 'OPEN' && can('operator')) {
        const reason = h('input', {type: 'text', id: 'letter-reason', autocomplete: 'off'});
        const act = async (action) => {
            try {
                const done = await post(`/dead-letters/${letter.id}/${action}`, {reason: reason.value});
                const replay = done.after && done.after.replays && done.after.replays[letter.id];
                if (replay) location.hash = '#/executions/' + replay;
                else await refresh();
                notice(action === 'replay' ? `Replayed dead letter #${letter.id}` : `Discarded dead letter #${letter.id}`, 'ok');
            } catch (error) {
                notice(`Could not ${action} dead letter #${letter.id}: ${error.message}`, 'error');
            }
        };
        section.append(h('form', {class: 'row', onsubmit: (e) => e.preventDefault()},
            field('Reason', reason),
            h('button', {type: 'button', 'data-action': 'replay', onclick: () => act('replay')}, 'Replay'),
            h('button', {type: 'button', 'data-action': 'discard', class: 'danger', onclick: () => act('discard')}, 'Discard')));
    }
    return section;
}
