// Shared helpers: building DOM from data as text, calling the endpoint, formatting.
// Every piece of data is untrusted: it goes into the page through textContent and attributes only.

const API = new URL('../dsched', document.baseURI).pathname;

export function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
        if (value === null || value === undefined || value === false) continue;
        if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
        else if (key === 'class') el.className = value;
        else el.setAttribute(key, value === true ? '' : String(value));
    }
    append(el, children);
    return el;
}

export function append(el, children) {
    for (const child of children.flat(Infinity)) {
        if (child === null || child === undefined || child === false) continue;
        el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
}

export function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
}

export class ApiError extends Error {
    constructor(status, body) {
        super((body && body.message) || `The request failed (${status})`);
        this.status = status;
        this.field = body && body.field;
    }
}

function csrfToken() {
    const cookie = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='));
    return cookie ? decodeURIComponent(cookie.substring('XSRF-TOKEN='.length)) : null;
}

async function call(path, options) {
    const response = await fetch(API + path, {credentials: 'same-origin', ...options});
    const text = await response.text();
    let body = null;
    try {
        body = text ? JSON.parse(text) : null;
    } catch (e) {
        body = null;
    }
    if (!response.ok) throw new ApiError(response.status, body);
    return body;
}

export function get(path, query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query || {})) {
        if (value !== null && value !== undefined && value !== '') params.set(key, value);
    }
    const q = params.toString();
    return call(path + (q ? '?' + q : ''), {headers: {Accept: 'application/json'}});
}

export function post(path, body) {
    const headers = {'Content-Type': 'application/json', Accept: 'application/json'};
    const token = csrfToken();
    if (token) headers['X-XSRF-TOKEN'] = token;
    const strings = {};
    for (const [key, value] of Object.entries(body || {})) {
        if (value !== null && value !== undefined && value !== '') strings[key] = String(value);
    }
    return call(path, {method: 'POST', headers, body: JSON.stringify(strings)});
}

export function enc(value) {
    return encodeURIComponent(value);
}

// Times show in the browser's zone, or in UTC once the reader chose it (remembered in this
// browser); each names its zone.
const ZONE_CHOICE = 'dsched.zone';
const shown = new Map();
let utc = remembered();

function remembered() {
    try {
        return localStorage.getItem(ZONE_CHOICE) === 'UTC';
    } catch (e) {
        return false;
    }
}

export function utcChosen() {
    return utc;
}

export function chooseUtc(chosen) {
    utc = chosen;
    try {
        if (chosen) localStorage.setItem(ZONE_CHOICE, 'UTC');
        else localStorage.removeItem(ZONE_CHOICE);
    } catch (e) {
        // a browser that keeps nothing keeps the choice until the page is loaded anew
    }
}

// the zone times are shown in, as its name
export function shownZone() {
    return utc ? 'UTC' : Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const STYLES = {
    time: {dateStyle: 'medium', timeStyle: 'long'},
    clock: {hour: '2-digit', minute: '2-digit'},
    seconds: {hour: '2-digit', minute: '2-digit', second: '2-digit'},
};

export function formatter(style) {
    const key = style + (utc ? ' UTC' : '');
    if (!shown.has(key)) {
        shown.set(key, new Intl.DateTimeFormat(undefined, {...STYLES[style], ...(utc ? {timeZone: 'UTC'} : {})}));
    }
    return shown.get(key);
}

export function time(iso, zone) {
    if (!iso) return h('span', {class: 'muted'}, '—');
    const at = new Date(iso);
    let title = at.toISOString();
    if (zone) {
        try {
            title = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'long', timeZone: zone})
                .format(at) + ' (' + zone + ')';
        } catch (e) {
            title = at.toISOString();
        }
    }
    return h('time', {datetime: at.toISOString(), title}, formatter('time').format(at));
}

export function clock(iso) {
    return formatter('clock').format(new Date(iso));
}

// Durations come as ISO-8601 text (PT1.5S) or as seconds.
export function millis(duration) {
    if (duration === null || duration === undefined) return null;
    if (typeof duration === 'number') return duration * 1000;
    const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(duration);
    if (!m) return null;
    return ((+(m[1] || 0)) * 3600 + (+(m[2] || 0)) * 60 + (+(m[3] || 0))) * 1000;
}

export function duration(ms) {
    if (ms === null || ms === undefined) return '—';
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    if (ms < 3600000) return Math.floor(ms / 60000) + ' min ' + Math.round((ms % 60000) / 1000) + ' s';
    return (ms / 3600000).toFixed(1) + ' h';
}

export function percent(rate) {
    return rate === null || rate === undefined ? '—' : (rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1) + ' %';
}

export function badge(status) {
    if (!status) return h('span', {class: 'muted'}, '—');
    return h('span', {class: 'badge badge-' + String(status).toLowerCase().replace(/[^a-z_]/g, '')}, status);
}

let carried = null;

// a notice that outlives the page change it comes with, such as a replay's, which opens the new
// attempt's page: the next page shows it
export function noticeAfterChange(message, kind) {
    carried = {message, kind};
}

export function takeCarriedNotice() {
    const taken = carried;
    carried = null;
    return taken;
}

export function notice(message, kind) {
    const el = document.getElementById('notice');
    clear(el);
    if (message) append(el, [h('p', {class: 'notice-' + (kind || 'info')}, message)]);
}

export function field(label, control, hint) {
    const id = control.id || 'f-' + Math.random().toString(36).slice(2);
    control.id = id;
    return h('div', {class: 'field'}, h('label', {for: id}, label), control, hint || null);
}

export function table(caption, headers, rows, empty) {
    const body = h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', {colspan: headers.length, class: 'muted'}, empty || 'Nothing here.')));
    return h('div', {class: 'table-wrap'},
        h('table', {}, h('caption', {class: 'sr-only'}, caption),
            h('thead', {}, h('tr', {}, headers.map((x) => h('th', {scope: 'col'}, x)))), body));
}

export function pager(page, onPage) {
    const pages = Math.max(1, Math.ceil(page.total / page.size));
    // a long history is counted only so far past the page: "of 500+ (10000+)"
    const more = page.totalExact === false ? '+' : '';
    return h('nav', {class: 'pager', 'aria-label': 'Pages of the list'},
        h('button', {type: 'button', disabled: page.page === 0, onclick: () => onPage(page.page - 1)}, 'Previous'),
        h('span', {}, `Page ${page.page + 1} of ${pages}${more} (${page.total}${more})`),
        h('button', {type: 'button', disabled: page.page + 1 >= pages, onclick: () => onPage(page.page + 1)}, 'Next'));
}
