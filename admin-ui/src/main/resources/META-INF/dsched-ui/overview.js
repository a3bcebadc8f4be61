import {h, get, time, table, percent, duration, millis, clock, append, shownZone} from './lib.js';
import {bars, lines} from './charts.js';

// a node whose clock is beyond dsched.cluster.max-clock-skew takes no fires until it is back
function nodeClock(n) {
    if (n.clockOffsetSeconds === null || n.clockOffsetSeconds === undefined) {
        return h('span', {class: 'muted'}, 'not measured');
    }
    const offset = `${n.clockOffsetSeconds > 0 ? '+' : ''}${n.clockOffsetSeconds.toFixed(3)} s`;
    return n.clockSkewed
        ? h('span', {class: 'badge badge-dead_lettered', title: 'beyond dsched.cluster.max-clock-skew: this node takes no fires'}, `skewed ${offset}`)
        : h('span', {class: 'muted'}, offset);
}

export async function overview(view) {
    const [o, t] = await Promise.all([get(''), get('/timeline')]);
    const labels = t.minutes.map((m) => clock(m.at));
    const counts = o.counts || {};
    const total = t.minutes.reduce((a, m) => a + m.started, 0);
    const ok = t.minutes.reduce((a, m) => a + m.succeeded, 0);
    const bad = t.minutes.reduce((a, m) => a + m.failed, 0);
    append(view, [
        h('h1', {}, 'Overview'),
        h('p', {class: 'muted'}, 'Answered by node ', h('strong', {}, o.node), `. Times are in ${shownZone()}.`),
        h('section', {class: 'tiles', 'aria-label': 'The cluster now'},
            tile('Nodes alive', `${o.nodes.filter((n) => n.alive).length} of ${o.nodes.length}`),
            tile('Jobs', o.jobs),
            groupsTile(o.groups || []),
            tile('Running', o.running),
            tile('Waiting', o.waiting),
            tile('Dead-letter backlog', t.deadLetterBacklog, t.deadLetterBacklog > 0 ? 'warn' : null, '#/dead-letters'),
            tile('Executions, last hour', total),
            tile('Success rate, last hour', percent(ok + bad ? ok / (ok + bad) : null)),
            tile('Failed, last hour', bad, bad > 0 ? 'warn' : null)),
        h('section', {'aria-labelledby': 'nodes-h'},
            h('h2', {id: 'nodes-h'}, 'Nodes'),
            table('Nodes of the cluster', ['Node', 'State', 'Groups', 'Clock', 'Joined', 'Last check-in'], o.nodes.map((n) => h('tr', {},
                h('td', {}, n.id, n.self ? h('span', {class: 'muted'}, ' (answered)') : null),
                h('td', {}, h('span', {class: 'badge ' + (n.alive ? 'badge-succeeded' : 'badge-dead_lettered')}, n.alive ? 'alive' : 'gone')),
                h('td', {}, (n.groups || []).length ? n.groups.join(', ') : h('span', {class: 'muted'}, 'runs no jobs')),
                h('td', {}, nodeClock(n)),
                h('td', {}, time(n.startedAt)),
                h('td', {}, time(n.lastSeen))))),
            table('Node groups', ['Group', 'State', 'Live nodes'], (o.groups || []).map((g) => h('tr', {'data-group': g.name},
                h('td', {}, g.name),
                h('td', {}, g.stalled
                    ? h('span', {class: 'badge badge-dead_lettered', title: 'no live node serves this group: its attempts wait'}, 'stalled')
                    : h('span', {class: 'badge badge-succeeded'}, 'served')),
                h('td', {}, g.liveNodes.length ? g.liveNodes.join(', ') : h('span', {class: 'muted'}, 'none')))))),
        h('section', {class: 'charts', 'aria-labelledby': 'hour-h'},
            h('h2', {id: 'hour-h'}, 'The last hour'),
            h('figure', {}, h('figcaption', {}, 'Executions per minute'),
                // each minute's bar stacks what succeeded, what failed, and the rest (running or skipped)
                bars('Executions per minute over the last hour', t.minutes.map((m, i) => ({
                    label: labels[i], parts: [
                        {value: m.succeeded, cls: 'bar-ok'},
                        {value: m.failed, cls: 'bar-bad'},
                        {value: Math.max(0, m.started - m.succeeded - m.failed), cls: 'bar-other'}],
                    tip: `${labels[i]}: ${m.started} started, ${m.succeeded} succeeded, ${m.failed} failed`}))),
                h('p', {class: 'legend'}, h('span', {class: 'key key-ok'}, 'succeeded'), ' ',
                    h('span', {class: 'key key-bad'}, 'failed'), ' ', h('span', {class: 'key key-other'}, 'running or skipped'))),
            h('figure', {}, h('figcaption', {}, 'Success rate'),
                lines('Success rate per minute over the last hour', labels,
                    [{name: 'success rate', cls: 'line-ok', values: t.minutes.map((m) => m.successRate === null ? null : m.successRate * 100)}],
                    (v) => Math.round(v) + ' %', 100)),
            h('figure', {}, h('figcaption', {}, 'Fire lag (p50 and p95)'),
                lines('Fire lag of scheduled fires per minute over the last hour', labels, [
                    {name: 'p50', cls: 'line-p50', values: t.minutes.map((m) => millis(m.lagP50))},
                    {name: 'p95', cls: 'line-p95', values: t.minutes.map((m) => millis(m.lagP95))}], duration),
                h('p', {class: 'legend'}, h('span', {class: 'key key-p50'}, 'p50'), ' ', h('span', {class: 'key key-p95'}, 'p95'))),
            h('p', {class: 'muted'}, `Counts by state over ${o.window}: `,
                Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'))]);
}

// a group no live node serves is stalled: its attempts wait until a node of the group joins
function groupsTile(groups) {
    const stalled = groups.filter((g) => g.stalled).map((g) => g.name);
    return stalled.length
        ? tile('Stalled groups', stalled.join(', '), 'warn')
        : tile('Node groups', groups.length);
}

function tile(label, value, cls, href) {
    const body = [h('span', {class: 'tile-label'}, label), h('span', {class: 'tile-value'}, value)];
    return href ? h('a', {class: 'tile ' + (cls || ''), href}, body) : h('div', {class: 'tile ' + (cls || '')}, body);
}
