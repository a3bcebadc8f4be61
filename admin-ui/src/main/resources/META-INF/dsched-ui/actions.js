import {h, post, enc, notice} from './lib.js';
import {can} from './app.js';

// The pause/resume and trigger buttons of a job, offered only to an operator or admin.
export function jobActions(job, refresh) {
    if (!can('operator')) return null;
    const run = async (action, label) => {
        try {
            await post(`/jobs/${enc(job.name)}/${action}`, {});
            await refresh();
            notice(`${label}: ${job.name}`, 'ok');
        } catch (error) {
            notice(`Could not ${action} ${job.name}: ${error.message}`, 'error');
        }
    };
    return h('span', {class: 'actions'},
        job.paused
            ? h('button', {type: 'button', 'data-action': 'resume', 'aria-label': `Resume ${job.name}`, onclick: () => run('resume', 'Resumed')}, 'Resume')
            : h('button', {type: 'button', 'data-action': 'pause', 'aria-label': `Pause ${job.name}`, onclick: () => run('pause', 'Paused')}, 'Pause'),
        h('button', {type: 'button', 'data-action': 'trigger', 'aria-label': `Trigger ${job.name} now`, onclick: () => run('trigger', 'Triggered')}, 'Trigger now'));
}

// The Cancel button of an attempt that waits or runs, offered only to an operator or admin: a
// waiting attempt is cancelled at once, a running one is asked to stop.
export function executionActions(execution, refresh) {
    if (!can('operator') || !['SCHEDULED', 'RETRY_SCHEDULED', 'RUNNING'].includes(execution.status)) return null;
    const cancel = async () => {
        try {
            const done = await post(`/executions/${execution.id}/cancel`, {});
            await refresh();
            notice(done.after && done.after.stopRequested
                ? `Asked execution #${execution.id} to stop`
                : `Cancelled execution #${execution.id}`, 'ok');
        } catch (error) {
            notice(`Could not cancel execution #${execution.id}: ${error.message}`, 'error');
        }
    };
    return h('span', {class: 'actions'},
        h('button', {type: 'button', 'data-action': 'cancel', class: 'danger', 'aria-label': `Cancel execution #${execution.id}`, onclick: cancel},
            'Cancel'));
}

// a job's open dead letters, linked to their list when there are any
export function deadLetterLink(j) {
    // a node of an earlier version does not count them
    if (j.openDeadLetters === undefined || j.openDeadLetters === null) return h('span', {class: 'muted'}, '—');
    if (!j.openDeadLetters) return h('span', {class: 'muted', 'data-dead-letters': 0}, '0');
    return h('a', {href: '#/dead-letters?job=' + encodeURIComponent(j.name), 'data-dead-letters': j.openDeadLetters,
        'aria-label': `${j.openDeadLetters} open dead letter(s) of ${j.name}`}, String(j.openDeadLetters));
}
