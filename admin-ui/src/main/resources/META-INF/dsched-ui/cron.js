// Describes common Spring cron expressions (second minute hour day-of-month month day-of-week) in
// words; anything else is shown as it is.

const MACROS = {
    '@yearly': 'every year on 1 January at midnight', '@annually': 'every year on 1 January at midnight',
    '@monthly': 'on the first of every month at midnight', '@weekly': 'every Sunday at midnight',
    '@daily': 'every day at midnight', '@midnight': 'every day at midnight', '@hourly': 'every hour, on the hour',
};
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const DAY_NAMES = {SUN: 0, MON: 1, TUE: 2, WED: 3, THU: 4, FRI: 5, SAT: 6};
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
    'October', 'November', 'December'];

const num = (v) => /^\d+$/.test(v);
const pad = (v) => String(v).padStart(2, '0');

function every(field, unit, plural) {
    if (field === '*') return `every ${unit}`;
    const step = /^(?:\*|0)\/(\d+)$/.exec(field);
    if (step) return step[1] === '1' ? `every ${unit}` : `every ${step[1]} ${plural}`;
    return null;
}

function day(v) {
    const n = num(v) ? +v : DAY_NAMES[String(v).toUpperCase()];
    return DAYS[n];
}

function days(dow) {
    if (dow === '*' || dow === '?') return null;
    const range = /^(\w+)-(\w+)$/.exec(dow);
    if (range && day(range[1]) && day(range[2])) {
        if (day(range[1]) === 'Monday' && day(range[2]) === 'Friday') return 'on weekdays';
        return `from ${day(range[1])} to ${day(range[2])}`;
    }
    const list = dow.split(',');
    if (list.every((d) => day(d))) return 'on ' + list.map(day).join(', ');
    return undefined;
}

export function describeCron(expression) {
    if (!expression) return null;
    const cron = expression.trim();
    if (MACROS[cron.toLowerCase()]) return MACROS[cron.toLowerCase()];
    const f = cron.split(/\s+/);
    if (f.length !== 6) return null;
    const [sec, min, hour, dom, month, dow] = f;
    const on = days(dow);
    if (on === undefined) return null;
    const dayPart = [];
    if (dom !== '*' && dom !== '?') {
        if (!num(dom)) return null;
        dayPart.push(`on day ${dom} of the month`);
    }
    if (month !== '*') {
        if (!num(month) || +month < 1 || +month > 12) return null;
        dayPart.push(`in ${MONTHS[+month - 1]}`);
    }
    if (on) dayPart.push(on);
    const suffix = dayPart.length ? ' ' + dayPart.join(' ') : '';
    if (min === '*' && hour === '*') {
        const s = every(sec, 'second', 'seconds');
        if (s) return s + suffix;
    }
    if (num(sec) && hour === '*') {
        const m = every(min, 'minute', 'minutes');
        if (m) return m + (sec !== '0' ? ` at second ${sec}` : '') + suffix;
        if (num(min)) return `every hour at minute ${min}` + suffix;
    }
    if (num(sec) && num(min)) {
        const hr = every(hour, 'hour', 'hours');
        if (hr) return `${hr} at minute ${min}` + suffix;
        if (num(hour)) return `at ${pad(hour)}:${pad(min)}${sec !== '0' ? ':' + pad(sec) : ''}` + (suffix || ' every day');
        if (/^\d+(,\d+)+$/.test(hour)) return `at ${hour.split(',').map((x) => pad(x) + ':' + pad(min)).join(', ')}` + (suffix || ' every day');
    }
    return null;
}
