import {h, get, time, table, percent, duration, millis, badge, field, clear, append} from './lib.js';
import {describeCron} from './cron.js';
import {jobActions, deadLetterLink} from './actions.js';
import {can} from './app.js';

export async function jobs(view, {query, refresh}) {
    const list = await get('/jobs');
    const search = h('input', {type: 'search', id: 'job-search', value: query.get('q') || '', placeholder: 'Name contains…', autocomplete: 'off'});
    const filter = h('select', {id: 'job-filter'},
        h('option', {value: ''}, 'All jobs'),
        h('option', {value: 'active'}, 'Active'),
        h('option', {value: 'paused'}, 'Paused'),
        h('option', {value: 'failing'}, 'Last run failed'),
        h('option', {value: 'runtime'}, 'Defined at run time'));
    filter.value = query.get('filter') || '';
    const holder = h('div', {});
    const draw = () => {
        const q = search.value.trim().toLowerCase();
        const f = filter.value;
        const shown = list.filter((j) => j.name.toLowerCase().includes(q)
            && (f === '' || (f === 'paused' && j.paused) || (f === 'active' && !j.paused)
                || (f === 'failing' && j.lastRun && j.lastRun.status !== 'SUCCEEDED') || (f === 'runtime' && j.kind === 'runtime')));
        clear(holder);
        const headers = ['Name', 'Schedule', 'Zone', 'Next fire', 'Last outcome', 'Success (24h)', 'p95 duration', 'Dead letters', 'State'];
        if (can('operator')) headers.push('Actions');
        append(holder, [table('Jobs', headers, shown.map((j) => row(j, refresh)), 'No job matches.')]);
    };
    search.addEventListener('input', draw);
    filter.addEventListener('change', draw);
    append(view, [
        h('h1', {}, 'Jobs'),
        h('form', {class: 'filters', role: 'search', onsubmit: (e) => e.preventDefault()},
            field('Search', search), field('Show', filter)),
        holder]);
    draw();
}

function row(j, refresh) {
    const words = describeCron(j.cron);
    return h('tr', {'data-job': j.name},
        h('th', {scope: 'row'}, h('a', {href: '#/jobs/' + encodeURIComponent(j.name)}, j.name),
            j.kind === 'runtime' ? h('span', {class: 'muted small'}, ' runtime') : null),
        h('td', {}, h('code', {}, j.cron || j.schedule || '—'), words ? h('div', {class: 'muted small'}, words) : null),
        h('td', {}, j.zone || h('span', {class: 'muted'}, 'node default')),
        h('td', {}, j.paused ? h('span', {class: 'muted'}, 'paused') : time(j.nextFireAt, j.zone)),
        h('td', {}, j.lastRun ? h('a', {href: '#/executions/' + j.lastRun.executionId}, badge(j.lastRun.status)) : badge(null)),
        h('td', {}, percent(j.stats.successRate), h('span', {class: 'muted small'}, ` of ${j.stats.runs}`)),
        h('td', {}, duration(millis(j.stats.p95))),
        h('td', {}, deadLetterLink(j)),
        h('td', {'data-state': j.paused ? 'paused' : 'active'}, j.paused ? badge('PAUSED') : h('span', {class: 'muted'}, 'active')),
        can('operator') ? h('td', {}, jobActions(j, refresh)) : null);
}
