import {h, get, time, table, field, pager, append} from './lib.js';

export async function audit(view, {query}) {
    const actor = query.get('actor') || '';
    const page = await get('/audit', {actor, page: +(query.get('page') || 0), size: 50});
    const input = h('input', {type: 'text', id: 'audit-actor', value: actor, autocomplete: 'off'});
    const go = (p) => {
        const q = new URLSearchParams();
        if (input.value.trim()) q.set('actor', input.value.trim());
        if (p) q.set('page', p);
        location.hash = '#/audit' + (q.toString() ? '?' + q : '');
    };
    append(view, [
        h('h1', {}, 'Audit'),
        h('p', {class: 'muted'}, 'Every write through the endpoint, refused ones too.'),
        h('form', {class: 'filters', onsubmit: (e) => { e.preventDefault(); go(0); }}, field('Actor', input), h('button', {type: 'submit'}, 'Filter')),
        table('Audit log', ['When', 'Who', 'Action', 'Target', 'Result', 'Reason', 'Change'], page.content.map((a) => h('tr', {},
            h('td', {}, time(a.actedAt)),
            h('td', {}, a.actor, a.remoteAddress ? h('div', {class: 'muted small'}, a.remoteAddress) : null),
            h('td', {}, h('code', {}, a.action)),
            h('td', {class: 'clip'}, target(a)),
            h('td', {}, h('span', {class: 'badge ' + (a.result === 200 ? 'badge-succeeded' : 'badge-failed')}, a.result)),
            h('td', {class: 'clip'}, a.reason || ''),
            h('td', {class: 'clip'}, a.result === 200 ? `${a.beforeValue || '—'} → ${a.afterValue || '—'}` : (a.detail || '')))),
        'Nothing audited yet.'),
        page.total > page.size ? pager(page, go) : null]);
}

// what the write was on, linked to its page where it has one that outlives the write
function target(a) {
    if (!a.target) return '';
    if (a.action.startsWith('job.') && a.action !== 'job.remove') {
        return h('a', {href: '#/jobs/' + encodeURIComponent(a.target)}, a.target);
    }
    if (a.action.startsWith('execution.') && /^\d+$/.test(a.target)) {
        return h('a', {href: '#/executions/' + a.target}, 'execution #' + a.target);
    }
    return a.target;
}
