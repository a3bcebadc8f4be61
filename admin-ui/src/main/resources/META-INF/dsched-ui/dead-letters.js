import {h, get, post, time, table, badge, field, notice, pager, append, utcChosen, shownZone} from './lib.js';
import {can} from './app.js';

export async function deadLetters(view, {query, refresh}) {
    const filters = {
        // open letters unless the page names a state: "Any" is named as the empty state
        job: query.get('job') || '', status: query.has('status') ? query.get('status') : 'open',
        from: query.get('from') || '', to: query.get('to') || '', page: +(query.get('page') || 0),
    };
    const [page, jobs] = await Promise.all([
        get('/dead-letters', {job: filters.job, status: filters.status,
            from: filters.from, to: filters.to, page: filters.page, size: 50}),
        // only for the zones on hover: the letters are shown without them if the jobs cannot be read
        get('/jobs').catch(() => [])]);
    // each letter's time is shown in the zone the reader chose, and in its job's zone on hover
    const zones = new Map(jobs.map((j) => [j.name, j.zone]));
    const job = h('input', {type: 'text', id: 'dl-job', value: filters.job, autocomplete: 'off'});
    const status = h('select', {id: 'dl-status'}, [['open', 'Open'], ['replayed', 'Replayed'], ['discarded', 'Discarded'], ['', 'Any']]
        .map(([v, l]) => h('option', {value: v}, l)));
    status.value = filters.status;
    const from = h('input', {type: 'datetime-local', id: 'dl-from', value: localInput(filters.from), max: '9999-12-31T23:59'});
    const to = h('input', {type: 'datetime-local', id: 'dl-to', value: localInput(filters.to), max: '9999-12-31T23:59'});
    const go = (p) => {
        const q = new URLSearchParams();
        if (job.value.trim()) q.set('job', job.value.trim());
        q.set('status', status.value);
        // an unchanged filter keeps its instant, which the input shows to the minute only
        if (from.value) q.set('from', from.value === localInput(filters.from) ? filters.from : instant(from.value));
        if (to.value) q.set('to', to.value === localInput(filters.to) ? filters.to : instant(to.value));
        if (p) q.set('page', p);
        location.hash = '#/dead-letters?' + q;
    };
    const operator = can('operator');
    const boxes = [];
    const rows = page.content.map((l) => {
        const box = operator && l.status === 'OPEN'
            ? h('input', {type: 'checkbox', value: l.id, 'aria-label': `Select dead letter ${l.id} of ${l.jobName}`}) : null;
        if (box) boxes.push(box);
        return h('tr', {'data-letter': l.id},
            operator ? h('td', {}, box) : null,
            h('td', {}, '#' + l.id),
            h('td', {}, h('a', {href: '#/jobs/' + encodeURIComponent(l.jobName)}, l.jobName)),
            h('td', {}, badge(l.status)),
            h('td', {class: 'nowrap'}, h('a', {href: '#/executions/' + l.executionId,
                'aria-label': `execution #${l.executionId}, whose attempts ended in dead letter ${l.id}`},
                'execution #' + l.executionId)),
            h('td', {class: 'nowrap'}, l.nodeId || ''),
            h('td', {}, l.attempts),
            h('td', {}, time(l.lastFailedAt, zones.get(l.jobName))),
            h('td', {}, h('code', {}, l.errorClass || '')),
            h('td', {class: 'clip'}, l.errorMessage || ''));
    });
    const headers = ['Id', 'Job', 'State', 'Execution', 'Node', 'Attempts', 'Last failed', 'Error', 'Message'];
    if (operator) {
        const all = h('input', {type: 'checkbox', 'aria-label': 'Select all open dead letters on this page',
            onchange: (e) => boxes.forEach((b) => { b.checked = e.target.checked; })});
        headers.unshift(all);
    }
    append(view, [
        h('h1', {}, 'Dead letters'),
        h('form', {class: 'filters', onsubmit: (e) => { e.preventDefault(); go(0); }},
            field('Job', job), field('State', status), field(`Failed from (${shownZone()})`, from),
            field(`Failed before (${shownZone()})`, to),
            h('button', {type: 'submit'}, 'Filter')),
        operator ? bulk(boxes, refresh) : null,
        table('Dead letters', headers, rows, 'No dead letter matches.'),
        page.total > page.size ? pager(page, go) : null]);
}

function bulk(boxes, refresh) {
    const reason = h('input', {type: 'text', id: 'bulk-reason', autocomplete: 'off'});
    const act = async (action) => {
        const ids = boxes.filter((b) => b.checked).map((b) => b.value);
        if (!ids.length) {
            notice('Select at least one dead letter.', 'error');
            return;
        }
        try {
            await post(`/dead-letters/${action}`, {ids: ids.join(','), reason: reason.value});
            await refresh();
            notice(`${action === 'replay' ? 'Replayed' : 'Discarded'} ${ids.length} dead letter(s)`, 'ok');
        } catch (error) {
            notice(`Could not ${action}: ${error.message}`, 'error');
        }
    };
    return h('form', {class: 'row bulk', 'aria-label': 'Act on the selected dead letters', onsubmit: (e) => e.preventDefault()},
        field('Reason', reason),
        h('button', {type: 'button', 'data-action': 'replay-selected', onclick: () => act('replay')}, 'Replay selected'),
        h('button', {type: 'button', 'data-action': 'discard-selected', class: 'danger', onclick: () => act('discard')}, 'Discard selected'));
}

// the filters' times are in the zone times are shown in
function localInput(iso) {
    if (!iso) return '';
    const d = new Date(iso);
    if (isNaN(d)) return '';
    const off = utcChosen() ? 0 : d.getTimezoneOffset() * 60000;
    return new Date(d - off).toISOString().slice(0, 16);
}

function instant(input) {
    return new Date(utcChosen() ? input + 'Z' : input).toISOString();
}
