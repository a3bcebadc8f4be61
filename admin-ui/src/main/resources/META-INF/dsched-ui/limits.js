import {h, get, post, enc, time, table, field, append, notice} from './lib.js';
import {can} from './app.js';

// The cluster-wide limits of one-off handlers, in force and declared, with their use; an admin
// sets them at run time for every node and takes them back to those declared.
export async function limits(view, {refresh}) {
    const list = await get('/limits');
    const headers = ['Handler', 'Running at once', 'Rate', 'Quota', 'Running', 'Waiting', 'Busiest keys', 'Set'];
    if (can('admin')) headers.push('Actions');
    append(view, [
        h('h1', {}, 'Limits'),
        h('p', {class: 'muted'}, 'Handlers with a cluster-wide maxConcurrent, rate or quota: the limits every node claims by, and how much of them is used.'),
        table('Limits', headers, list.map((l) => row(l, refresh)), 'No handler has cluster-wide limits.'),
        can('admin') && list.length ? form(list, refresh) : null]);
}

function row(l, refresh) {
    const changed = l.setBy !== null && l.setBy !== undefined;
    return h('tr', {'data-limit': l.name},
        h('th', {scope: 'row'}, l.name),
        h('td', {'data-max-concurrent': l.maxConcurrent, 'data-adapted': adapted(l) ? l.adaptedMaxConcurrent : null},
            mostInForce(l),
            l.perKey ? h('span', {class: 'muted small'}, ' per key') : null,
            declared(changed, l.declaredMaxConcurrent ? String(l.declaredMaxConcurrent) : 'no limit', l.declaredMaxConcurrent)),
        h('td', {'data-rate': l.rate || ''},
            l.rate ? h('code', {}, l.rate) : h('span', {class: 'muted'}, 'no rate'),
            l.tokens !== null && l.tokens !== undefined ? h('div', {class: 'muted small'}, `${l.tokens} tokens`) : null,
            declared(changed, l.declaredRate || 'no rate', l.declaredMaxConcurrent),
            l.keyRate ? h('div', {'data-key-rate': l.keyRate}, 'each key: ', h('code', {}, l.keyRate)) : null),
        h('td', {'data-quota': l.quota || '', 'data-quota-used': l.quota ? l.quotaUsed : null},
            l.quota ? [`${l.quotaUsed} of `, h('code', {}, l.quota), ' used'] : h('span', {class: 'muted'}, 'no quota'),
            declared(changed, l.declaredQuota || 'no quota', l.declaredMaxConcurrent)),
        h('td', {'data-running': l.running}, String(l.running)),
        h('td', {'data-waiting': l.waiting}, String(l.waiting), waitingWhy(l)),
        h('td', {class: 'clip'}, keys(l)),
        h('td', {}, changed
            ? [h('span', {class: 'badge badge-paused'}, 'at run time'), h('div', {class: 'muted small'}, 'by ', l.setBy, ', ', time(l.setAt))]
            : h('span', {class: 'muted'}, 'declared')),
        can('admin') ? h('td', {}, changed && l.declaredMaxConcurrent !== null && l.declaredMaxConcurrent !== undefined
            ? h('button', {type: 'button', 'data-action': 'reset', 'aria-label': `Take the limits of ${l.name} back to those declared`,
                onclick: () => write(`/limits/${enc(l.name)}/reset`, {}, `Limits of ${l.name} taken back to those declared`, refresh)}, 'Take back')
            : h('span', {class: 'muted'}, '—')) : null);
}

function adapted(l) {
    return l.adaptedMaxConcurrent !== null && l.adaptedMaxConcurrent !== undefined;
}

// the limit in force: the one an adaptive limit allows now, of the ceiling declared or set
function mostInForce(l) {
    if (!l.maxConcurrent) return h('span', {class: 'muted'}, 'no limit');
    if (!adapted(l)) return String(l.maxConcurrent);
    return [String(l.adaptedMaxConcurrent), h('span', {class: 'muted small'}, ` (adapted, of ${l.maxConcurrent})`)];
}

// what the code declares, shown under a value changed at run time; nothing where this node does not declare it
function declared(changed, text, declaredMaxConcurrent) {
    if (!changed || declaredMaxConcurrent === null || declaredMaxConcurrent === undefined) return null;
    return h('div', {class: 'muted small'}, `declared: ${text}`);
}

function waitingWhy(l) {
    const why = [];
    if (l.waitingForSlot) why.push(`${l.waitingForSlot} for a slot`);
    if (l.waitingForToken) why.push(`${l.waitingForToken} for a token`);
    if (l.waitingForQuota) why.push(`${l.waitingForQuota} for the quota`);
    return why.length ? h('div', {class: 'muted small'}, why.join(', ')) : null;
}

function keys(l) {
    if (!l.keys || !l.keys.length) return h('span', {class: 'muted'}, l.perKey ? 'none now' : '—');
    return h('ul', {class: 'plain'}, l.keys.map((k) => h('li', {'data-key': k.key},
        h('code', {}, k.key === '' ? '(empty)' : k.key), ` ${k.running} running`,
        k.waiting ? `, ${k.waiting} waiting` : '', k.full ? h('span', {class: 'badge badge-failed'}, ' full') : null)));
}

function form(list, refresh) {
    const handler = h('select', {id: 'limit-handler'}, list.map((l) => h('option', {value: l.name}, l.name)));
    const most = h('input', {type: 'number', id: 'limit-max-concurrent', min: 0, max: 100000, autocomplete: 'off'});
    const rate = h('input', {type: 'text', id: 'limit-rate', placeholder: '50/1s or none', autocomplete: 'off'});
    const quota = h('input', {type: 'text', id: 'limit-quota', placeholder: '10000/1d or none', autocomplete: 'off'});
    const reason = h('input', {type: 'text', id: 'limit-reason', autocomplete: 'off'});
    const submit = async (event) => {
        event.preventDefault();
        if (most.value === '' && rate.value.trim() === '' && quota.value.trim() === '') {
            notice('Give the most running at once, a rate, a quota, or more than one.', 'error');
            return;
        }
        await write(`/limits/${enc(handler.value)}/set`,
            {maxConcurrent: most.value, rate: rate.value.trim(), quota: quota.value.trim(), reason: reason.value.trim()},
            `Limits of ${handler.value} set for every node`, refresh);
    };
    return h('section', {'aria-labelledby': 'set-limits-h'},
        h('h2', {id: 'set-limits-h'}, 'Set limits at run time'),
        h('form', {class: 'filters', 'aria-label': 'Set limits', onsubmit: submit},
        field('Handler', handler),
        field('Running at once', most, h('span', {class: 'muted small'}, '0 for no limit; empty keeps it')),
        field('Rate', rate, h('span', {class: 'muted small'}, 'empty keeps it')),
        field('Quota', quota, h('span', {class: 'muted small'}, 'windows in UTC; empty keeps it')),
        field('Reason', reason),
        h('button', {type: 'submit'}, 'Set')));
}

async function write(path, body, done, refresh) {
    try {
        await post(path, body);
        await refresh({keepNotice: true});
        notice(done, 'ok');
    } catch (error) {
        notice(`Could not change the limits: ${error.message}`, 'error');
    }
}
