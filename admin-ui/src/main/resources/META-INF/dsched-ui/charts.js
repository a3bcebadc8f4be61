// Small SVG charts, drawn with createElementNS and attributes only (no inline style).

const NS = 'http://www.w3.org/2000/svg';

function s(tag, attrs, ...children) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
    for (const c of children) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return el;
}

const W = 600;
const H = 140;
const PAD = 28;

function frame(label, max, format) {
    const svg = s('svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, class: 'chart', preserveAspectRatio: 'none'});
    svg.append(s('title', {}, label));
    svg.append(s('line', {x1: PAD, y1: H - 16, x2: W, y2: H - 16, class: 'axis'}));
    svg.append(s('text', {x: 2, y: 12, class: 'tick'}, format(max)));
    svg.append(s('text', {x: 2, y: H - 18, class: 'tick'}, format(0)));
    return svg;
}

// Bars: points = [{label, value, cls, tip}], or [{label, parts: [{value, cls}], tip}] for a bar
// stacked from its parts, the first at the bottom
export function bars(label, points, format = (v) => String(Math.round(v))) {
    const total = (p) => (p.parts ? p.parts.reduce((a, part) => a + Math.max(0, part.value || 0), 0) : p.value || 0);
    const max = Math.max(1, ...points.map(total));
    const svg = frame(label, max, format);
    const step = (W - PAD) / Math.max(points.length, 1);
    points.forEach((p, i) => {
        // a value below zero (a run recorded as ending before it started) is drawn as an empty bar
        let base = H - 16;
        for (const part of p.parts || [{value: p.value, cls: p.cls}]) {
            const height = (Math.max(0, part.value || 0) / max) * (H - 30);
            if (p.parts && !height) continue;
            base -= height;
            const bar = s('rect', {x: PAD + i * step + 1, y: base, width: Math.max(1, step - 2), height,
                class: 'bar ' + (part.cls || '')});
            bar.append(s('title', {}, p.tip || `${p.label}: ${format(total(p))}`));
            svg.append(bar);
        }
    });
    if (points.length) {
        svg.append(s('text', {x: PAD, y: H - 2, class: 'tick'}, points[0].label));
        svg.append(s('text', {x: W, y: H - 2, class: 'tick', 'text-anchor': 'end'}, points[points.length - 1].label));
    }
    return svg;
}

// Lines: series = [{name, cls, values: [number|null]}], labels = [string]
export function lines(label, labels, series, format = (v) => String(v), fixedMax) {
    const all = series.flatMap((x) => x.values).filter((v) => v !== null && v !== undefined);
    const max = fixedMax || Math.max(1, ...all);
    const svg = frame(label, max, format);
    const step = (W - PAD) / Math.max(labels.length - 1, 1);
    for (const line of series) {
        let d = '';
        line.values.forEach((v, i) => {
            if (v === null || v === undefined) return;
            const x = PAD + i * step;
            const y = H - 16 - (v / max) * (H - 30);
            d += (d && line.values[i - 1] !== null && line.values[i - 1] !== undefined ? 'L' : 'M') + x.toFixed(1) + ' ' + y.toFixed(1);
            const dot = s('circle', {cx: x, cy: y, r: 2, class: 'dot ' + line.cls});
            dot.append(s('title', {}, `${labels[i]} ${line.name}: ${format(v)}`));
            svg.append(dot);
        });
        svg.append(s('path', {d: d || 'M0 0', class: 'line ' + line.cls}));
    }
    if (labels.length) {
        svg.append(s('text', {x: PAD, y: H - 2, class: 'tick'}, labels[0]));
        svg.append(s('text', {x: W, y: H - 2, class: 'tick', 'text-anchor': 'end'}, labels[labels.length - 1]));
    }
    return svg;
}

// Spans on a shared time axis, one row each: items = [{start, end, label, note, cls, tip}], times in
// milliseconds; the axis is marked with its first and last time, written by at(ms)
export function spans(label, items, at) {
    const min = Math.min(...items.map((i) => i.start));
    const max = Math.max(...items.map((i) => i.end), min + 1);
    const labelW = 80;
    const plotW = W - labelW - 8;
    const rowH = 20;
    const axisY = items.length * rowH + 6;
    const svg = s('svg', {viewBox: `0 0 ${W} ${axisY + 16}`, role: 'img', 'aria-label': label, class: 'chart spans'});
    svg.append(s('title', {}, label));
    items.forEach((item, i) => {
        const y = 4 + i * rowH;
        // at least 3 wide, and inside the plot even when it starts at its very end
        const w = Math.max(3, ((item.end - item.start) / (max - min)) * plotW);
        const x = Math.min(labelW + ((item.start - min) / (max - min)) * plotW, labelW + plotW - 3);
        svg.append(s('text', {x: 0, y: y + 11, class: 'tick'}, item.label));
        const r = s('rect', {x, y, width: Math.min(w, labelW + plotW - x), height: rowH - 8, rx: 2, class: 'bar ' + item.cls});
        r.append(s('title', {}, item.tip));
        svg.append(r);
        // the note beside its bar where there is room, to its left or on the bar itself
        const right = x + w + 4 < labelW + plotW * 0.7;
        const left = !right && x - 4 > labelW + plotW * 0.3;
        svg.append(s('text', {x: right ? x + w + 4 : left ? x - 4 : x + 4, y: y + 11,
            class: right || left ? 'tick' : 'tick on-bar', 'text-anchor': left ? 'end' : 'start'}, item.note));
    });
    svg.append(s('line', {x1: labelW, y1: axisY, x2: labelW + plotW, y2: axisY, class: 'axis'}));
    svg.append(s('text', {x: labelW, y: axisY + 13, class: 'tick'}, at(min)));
    svg.append(s('text', {x: labelW + plotW, y: axisY + 13, class: 'tick', 'text-anchor': 'end'}, at(max)));
    return svg;
}
