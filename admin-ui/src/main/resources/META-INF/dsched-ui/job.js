import {h, get, post, enc, time, table, percent, duration, millis, badge, field, clear, append, notice, pager, shownZone} from './lib.js';
import {describeCron} from './cron.js';
import {jobActions, deadLetterLink} from './actions.js';
import {bars} from './charts.js';
import {can} from './app.js';

const STATUSES = ['', 'SUCCEEDED', 'FAILED', 'DEAD_LETTERED', 'TIMED_OUT', 'RUNNING', 'RETRY_SCHEDULED', 'SKIPPED', 'SCHEDULED', 'CANCELLED'];

export async function job(view, {args, query, refresh}) {
    const name = args[0];
    const status = query.get('status') || '';
    const page = +(query.get('page') || 0);
    const detail = await get('/jobs/' + enc(name), {status: status.toLowerCase(), page, size: 20});
    const j = detail.job;
    const words = describeCron(j.cron);
    append(view, [
        h('p', {class: 'crumbs'}, h('a', {href: '#/jobs'}, 'Jobs'), ' / '),
        h('h1', {}, j.name),
        h('div', {class: 'job-head'},
            h('dl', {class: 'facts'},
                fact('Schedule', h('code', {}, j.cron || j.schedule || '—')),
                fact('In words', words || (j.cron ? j.cron : j.schedule || '—')),
                fact('Zone', j.zone || 'node default'),
                fact('Next fire', j.paused ? 'paused' : time(j.nextFireAt, j.zone)),
                fact('State', j.paused ? badge('PAUSED') : 'active'),
                fact('Kind', j.kind + (j.handler ? ` (handler ${j.handler})` : '')),
                fact('Success (24h)', `${percent(j.stats.successRate)} of ${j.stats.runs} runs`),
                fact('p95 duration', duration(millis(j.stats.p95))),
                fact('Open dead letters', deadLetterLink(j))),
            jobActions(j, refresh)),
        can('admin') ? scheduleEditor(j, refresh) : null,
        paramsSection(j, detail.valuesMasked, refresh),
        shardsInForce(detail.shards),
        fires(j, detail.fires || []),
        executions(j, detail.executions, status)]);
}

// one fire of a sharded or broadcast job: each shard as its latest attempt stands
export async function fire(view, {args}) {
    const [name, at] = args;
    const detail = await get('/jobs/' + enc(name), {fire: at});
    const f = detail.fire;
    append(view, [
        h('p', {class: 'crumbs'}, h('a', {href: '#/jobs'}, 'Jobs'), ' / ',
            h('a', {href: '#/jobs/' + enc(name)}, name), ' / '),
        h('h1', {}, 'Fire of ' + name),
        h('dl', {class: 'facts', 'data-fire-facts': ''},
            fact('Scheduled', time(f.scheduledAt)),
            fact('State', badge(f.state)),
            fact('Shards', `${f.succeeded} of ${f.shards} succeeded`),
            fact('Completion', duration(f.completionMillis))),
        h('section', {'data-fire-shards': ''},
            table(`Shards of the fire of ${name}`, ['Shard', 'State', 'Node', 'Attempts', 'Started', 'Finished', 'Latest attempt'],
                detail.shards.map((s) => h('tr', {'data-shard': String(s.index)},
                    h('td', {}, `${s.index} of ${f.shards}`),
                    h('td', {}, badge(s.status)),
                    h('td', {}, s.nodeId),
                    h('td', {}, String(s.attempts)),
                    h('td', {}, time(s.startedAt)),
                    h('td', {}, s.finishedAt ? time(s.finishedAt) : '—'),
                    h('td', {}, h('a', {href: '#/executions/' + s.executionId}, '#' + s.executionId))))))]);
}

// the shards a sharded job's next fires are split into, when set at run time
function shardsInForce(shards) {
    if (!shards) return null;
    const params = Object.entries(shards.params).map(([i, p]) => `${i}=${p}`).join(', ');
    return h('p', {class: 'muted', 'data-shards-in-force': ''},
        `Each fire is split into ${shards.count} shards` + (params ? ` (${params})` : '')
        + (shards.setBy ? `, set by ${shards.setBy} in place of the ${shards.declared} declared.` : '.'));
}

function fact(term, value) {
    return [h('dt', {}, term), h('dd', {}, value)];
}

function scheduleEditor(j, refresh) {
    const cron = h('input', {type: 'text', id: 'cron', value: j.cron || '', spellcheck: 'false', autocomplete: 'off',
        'aria-describedby': 'cron-check'});
    const zone = h('input', {type: 'text', id: 'zone', value: j.zone || '', placeholder: 'node default', autocomplete: 'off', list: 'zones'});
    const reason = h('input', {type: 'text', id: 'schedule-reason', autocomplete: 'off'});
    const check = h('div', {id: 'cron-check', class: 'check', 'aria-live': 'polite'});
    const save = h('button', {type: 'submit', disabled: true}, 'Save schedule');
    let seq = 0;
    let timer = null;
    const validate = async () => {
        const mine = ++seq;
        if (!cron.value.trim()) {
            clear(check);
            append(check, [h('p', {class: 'error', 'data-field': 'cron'}, 'Give a cron expression.')]);
            save.disabled = true;
            return;
        }
        try {
            const preview = await get('/schedule-preview', {cron: cron.value.trim(), zone: zone.value.trim()});
            if (mine !== seq) return;
            clear(check);
            const words = describeCron(preview.cron);
            append(check, [h('p', {class: 'ok'}, words ? `Valid: ${words}.` : 'Valid.'),
                h('p', {class: 'muted'}, `Next five fires (in ${shownZone()}; hover for ${preview.zone}):`),
                h('ol', {class: 'preview'}, preview.next.map((at) => h('li', {}, time(at, preview.zone))))]);
            save.disabled = false;
        } catch (error) {
            if (mine !== seq) return;
            clear(check);
            append(check, [h('p', {class: 'error', role: 'alert', 'data-field': error.field || 'cron'}, error.message)]);
            save.disabled = true;
        }
    };
    const soon = () => {
        save.disabled = true;
        clearTimeout(timer);
        timer = setTimeout(validate, 250);
    };
    cron.addEventListener('input', soon);
    zone.addEventListener('input', soon);
    const form = h('form', {class: 'editor', 'aria-labelledby': 'schedule-h', onsubmit: async (e) => {
        e.preventDefault();
        try {
            await post(`/jobs/${enc(j.name)}/schedule`, {cron: cron.value.trim(), zone: zone.value.trim(), reason: reason.value});
            await refresh();
            notice(`Saved the schedule of ${j.name}`, 'ok');
        } catch (error) {
            clear(check);
            append(check, [h('p', {class: 'error', role: 'alert', 'data-field': error.field || ''}, error.message)]);
        }
    }},
    h('h2', {id: 'schedule-h'}, 'Schedule'),
    h('div', {class: 'row'},
        field('Cron (second minute hour day month weekday)', cron),
        field('Zone', zone),
        field('Reason', reason)),
    h('datalist', {id: 'zones'}, ['UTC', 'Europe/Berlin', 'Europe/London', 'America/New_York', 'Asia/Tokyo',
        Intl.DateTimeFormat().resolvedOptions().timeZone].map((z) => h('option', {value: z}))),
    check, save);
    if (j.cron) validate();
    return form;
}

function paramsSection(j, masked, refresh) {
    if (j.kind !== 'runtime') return null;
    const section = h('section', {'aria-labelledby': 'params-h'}, h('h2', {id: 'params-h'}, 'Parameters'), maskedNote(masked, j.params));
    if (!can('admin')) {
        section.append(h('pre', {class: 'params', 'data-params': ''}, pretty(j.params)));
        return section;
    }
    const text = h('textarea', {id: 'params', rows: 6, spellcheck: 'false', 'aria-describedby': 'params-check'});
    text.value = pretty(j.params);
    const check = h('p', {id: 'params-check', class: 'check', 'aria-live': 'polite'});
    const reason = h('input', {type: 'text', id: 'params-reason', autocomplete: 'off'});
    const save = h('button', {type: 'submit'}, 'Save parameters');
    text.addEventListener('input', () => {
        try {
            JSON.parse(text.value);
            check.textContent = 'Valid JSON.';
            check.className = 'check ok';
            save.disabled = false;
        } catch (error) {
            check.textContent = 'Not valid JSON: ' + error.message;
            check.className = 'check error';
            save.disabled = true;
        }
    });
    section.append(h('form', {class: 'editor', onsubmit: async (e) => {
        e.preventDefault();
        try {
            await post(`/jobs/${enc(j.name)}/params`, {params: JSON.stringify(JSON.parse(text.value)), reason: reason.value});
            await refresh();
            notice(`Saved the parameters of ${j.name}`, 'ok');
        } catch (error) {
            check.textContent = error.message;
            check.className = 'check error';
        }
    }}, field('Parameters (JSON)', text), field('Reason', reason), check, save));
    return section;
}

// masked for this user (dsched.management.show-values), or keys that look secret masked in what it sees
function maskedNote(masked, params) {
    if (masked) return h('p', {class: 'muted', 'data-masked': ''}, 'The parameters are masked.');
    if (params && params.includes('******')) {
        return h('p', {class: 'muted', 'data-masked': ''}, 'Values of keys that look secret show as ******; a value saved as ****** keeps what is stored.');
    }
    return null;
}

function pretty(params) {
    if (params === null || params === undefined) return '';
    try {
        return JSON.stringify(JSON.parse(params), null, 2);
    } catch (e) {
        return String(params);
    }
}

// a sharded job's latest fires as wholes: each shard counts by its latest attempt
function fires(j, list) {
    if (!list.length) return null;
    return h('section', {'aria-labelledby': 'fires-h', 'data-fires': ''},
        h('h2', {id: 'fires-h'}, 'Fires'),
        h('p', {class: 'muted'}, 'Each fire is split into shards; a fire is done when every shard succeeded, partial while a shard is dead-lettered.'),
        table('Fires of ' + j.name, ['Scheduled', 'State', 'Succeeded', 'Dead-lettered', 'Waiting or running', 'Completion', 'Shards by node'],
            list.map((f) => h('tr', {'data-fire': f.scheduledAt},
                h('td', {}, h('a', {href: '#/jobs/' + enc(j.name) + '/fires/' + new Date(f.scheduledAt).getTime()},
                    time(f.scheduledAt, j.zone))),
                h('td', {}, badge(f.state)),
                h('td', {}, `${f.succeeded} of ${f.shards}`),
                h('td', {}, f.deadLettered ? h('a', {href: '#/dead-letters?job=' + encodeURIComponent(j.name)}, String(f.deadLettered)) : '0'),
                h('td', {}, String(f.unfinished)),
                h('td', {}, duration(f.completionMillis)),
                h('td', {}, Object.entries(f.shardsByNode).map(([node, n]) => `${node}: ${n}`).join(', ') || '—')))));
}

function executions(j, page, status) {
    const select = h('select', {id: 'status-filter'}, STATUSES.map((s) => h('option', {value: s}, s || 'Any state')));
    select.value = status;
    const go = (p, s) => {
        const q = new URLSearchParams();
        if (s) q.set('status', s);
        if (p) q.set('page', p);
        location.hash = '#/jobs/' + encodeURIComponent(j.name) + (q.toString() ? '?' + q : '');
    };
    select.addEventListener('change', () => go(0, select.value));
    const runs = page.content;
    const chart = runs.filter((r) => r.finishedAt).reverse().map((r) => ({
        label: '#' + r.id, value: new Date(r.finishedAt) - new Date(r.startedAt),
        cls: r.status === 'SUCCEEDED' ? '' : 'bar-bad', tip: `#${r.id} ${r.status}: ${duration(new Date(r.finishedAt) - new Date(r.startedAt))}`}));
    return h('section', {'aria-labelledby': 'runs-h'},
        h('h2', {id: 'runs-h'}, 'Recent executions'),
        h('div', {class: 'filters'}, field('State', select)),
        chart.length ? h('figure', {}, h('figcaption', {}, 'Duration of these executions'), bars('Duration of the listed executions', chart, duration)) : null,
        table('Executions of ' + j.name, ['Id', 'State', 'Attempt', 'Origin', 'Scheduled', 'Started', 'Duration', 'Node', 'Error'],
            runs.map((r) => h('tr', {},
                h('td', {}, h('a', {href: '#/executions/' + r.id}, '#' + r.id)),
                h('td', {}, badge(r.status)),
                h('td', {}, r.attempt),
                h('td', {}, r.origin),
                h('td', {}, time(r.scheduledAt, j.zone)),
                h('td', {}, time(r.startedAt, j.zone)),
                h('td', {}, r.finishedAt ? duration(new Date(r.finishedAt) - new Date(r.startedAt)) : '—'),
                h('td', {}, r.nodeId),
                h('td', {class: 'clip'}, r.errorMessage || ''))), 'No execution in this state.'),
        page.total > page.size ? pager(page, (p) => go(p, status)) : null);
}
