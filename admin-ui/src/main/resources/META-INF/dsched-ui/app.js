// The admin UI: a router over the pages, each of which reads the dsched endpoint.
import {h, append, clear, get, notice, takeCarriedNotice, ApiError, utcChosen, chooseUtc} from './lib.js';
import {overview} from './overview.js';
import {jobs} from './jobs.js';
import {job, fire} from './job.js';
import {execution} from './execution.js';
import {deadLetters} from './dead-letters.js';
import {audit} from './audit.js';
import {limits} from './limits.js';

const routes = [
    [/^\/?$/, 'overview', overview],
    [/^\/jobs$/, 'jobs', jobs],
    [/^\/jobs\/(.+)\/fires\/(\d+)$/, 'jobs', fire],
    [/^\/jobs\/(.+)$/, 'jobs', job],
    [/^\/executions\/(\d+)$/, 'jobs', execution],
    [/^\/dead-letters$/, 'dead-letters', deadLetters],
    [/^\/limits$/, 'limits', limits],
    [/^\/audit$/, 'audit', audit],
];

const session = {me: null};

export function can(level) {
    return !!(session.me && session.me.writes && session.me.roles.includes(level));
}

// renders the page the address names; a page that follows what it shows renders itself again
// with keepNotice, so that the notice of the write that led there stays
let renders = 0;

async function render({keepNotice} = {}) {
    // a page drawn after another was asked for (a follow's redraw as the reader moves on) is dropped
    const mine = ++renders;
    const main = document.getElementById('main');
    const hash = decodeURI(location.hash.replace(/^#/, '').split('?')[0]) || '/';
    const query = new URLSearchParams(location.hash.includes('?') ? location.hash.split('?')[1] : '');
    const route = routes.find(([pattern]) => pattern.test(hash));
    for (const link of document.querySelectorAll('[data-nav]')) {
        if (route && link.dataset.nav === route[1]) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
    }
    if (!keepNotice) {
        const carried = takeCarriedNotice();
        notice(carried ? carried.message : null, carried && carried.kind);
    }
    const view = h('div', {class: 'view'});
    try {
        if (!session.me) await whoAmI();
        if (!route) {
            append(view, [h('h1', {}, 'Not found'), h('p', {}, 'There is no page here.')]);
        } else {
            const args = route[0].exec(hash).slice(1).map(decodeURIComponent);
            await route[2](view, {args, query, refresh: render});
        }
    } catch (error) {
        append(view, [h('h1', {}, 'Could not load this page'), h('p', {class: 'error'}, message(error))]);
    }
    if (mine !== renders) return;
    clear(main);
    main.append(view);
    const heading = main.querySelector('h1');
    if (heading) document.title = heading.textContent + ' · dsched';
}

function message(error) {
    if (error instanceof ApiError && error.status === 401) return 'Sign in to see the scheduler.';
    if (error instanceof ApiError && error.status === 403) return 'Your account has no dsched role: ' + error.message;
    return error.message;
}

async function whoAmI() {
    session.me = await get('/me');
    const user = document.getElementById('user');
    clear(user);
    const role = session.me.roles[session.me.roles.length - 1] || 'no role';
    append(user, [session.me.name || 'anonymous', ' ', h('span', {class: 'badge'}, role)]);
    document.body.dataset.role = role;
}

// the skip link moves the focus to the page: its #main is not a route, so it must not reach the hash
document.querySelector('.skip').addEventListener('click', (event) => {
    event.preventDefault();
    document.getElementById('main').focus();
});

const zone = document.getElementById('times-in');
zone.value = utcChosen() ? 'UTC' : '';
zone.addEventListener('change', () => {
    chooseUtc(zone.value === 'UTC');
    render();
});

window.addEventListener('hashchange', () => {
    render().then(() => document.getElementById('main').focus({preventScroll: false}));
});
render();
