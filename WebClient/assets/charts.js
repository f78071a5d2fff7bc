// SVG charts drawn by the operator page itself (no library): stacked bars per day, a line of a
// share per day, horizontal bars and a meter; plus the readable numbers and the table view that
// go beside each. Colours come from classes in style.css (the CSP allows no inline style).
// Numbers, shares and days are written in the page's locale (language.js); the titles, legends and
// captions come in already translated.

import { formatDate, formatDay, formatNumber, formatPercent } from "./language.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 30 };

function svg(name, attributes = {}, text) {
  const element = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

function el(name, attributes = {}, text) {
  const element = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

export const formatCount = (n) => formatNumber(n);
export const formatShare = (x) => formatPercent(x);

/** The smallest 1, 2 or 5 × 10^k that is at least `n` (at least 1), for an axis that reads well. */
export function niceMax(n) {
  if (!(n > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * power >= n) return step * power;
  return 10 * power;
}

/** "2 Dec" / "12月2日" for a YYYY-MM-DD day (UTC, as the figures are): the axis labels. */
export const shortDate = (day) => formatDay(day);

function frame(title) {
  const root = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "chart-svg", role: "img", "aria-hidden": "true", focusable: "false",
  });
  root.append(svg("title", {}, title));
  return root;
}

function plot() {
  return { x0: PAD.left, x1: WIDTH - PAD.right, y0: HEIGHT - PAD.bottom, y1: PAD.top };
}

/** Horizontal grid lines with their labels at 0, half and the top of the axis. */
function grid(root, area, top, label) {
  for (const fraction of [0, 0.5, 1]) {
    const y = area.y0 - (area.y0 - area.y1) * fraction;
    root.append(svg("line", { x1: area.x0, x2: area.x1, y1: y, y2: y, class: fraction === 0 ? "axis" : "gridline" }));
    root.append(svg("text", { x: area.x0 - 6, y: y + 4, class: "tick", "text-anchor": "end" }, label(top * fraction)));
  }
}

/** Date labels under the first, middle and last day. */
function dayLabels(root, area, days, band) {
  const picks = [...new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])];
  for (const i of picks) {
    const x = area.x0 + band * (i + 0.5);
    const anchor = days.length === 1 ? "middle" : i === 0 ? "start" : i === days.length - 1 ? "end" : "middle";
    root.append(svg("text", { x, y: HEIGHT - 8, class: "tick", "text-anchor": anchor }, shortDate(days[i].date)));
  }
}

/** One stacked bar per day; `series` = [{label, cls, value(day)}]. */
export function stackedBars(title, days, series) {
  const root = frame(title);
  const area = plot();
  const band = (area.x1 - area.x0) / days.length;
  const width = Math.max(1, band * 0.78);
  const totals = days.map((d) => series.reduce((sum, s) => sum + s.value(d), 0));
  const top = niceMax(Math.max(0, ...totals));
  grid(root, area, top, formatCount);
  const scale = (area.y0 - area.y1) / top;
  days.forEach((day, i) => {
    let y = area.y0;
    const x = area.x0 + band * i + (band - width) / 2;
    for (const s of series) {
      const value = s.value(day);
      if (value <= 0) continue;
      const height = value * scale;
      y -= height;
      const bar = svg("rect", { x, y, width, height, class: `bar ${s.cls}` });
      bar.append(svg("title", {}, `${formatDate(day.date)}: ${s.label} ${formatCount(value)}`));
      root.append(bar);
    }
  });
  dayLabels(root, area, days, band);
  return root;
}

/** A share (0…1) per day as a line with a dot per day; null (no data that day) breaks the line. */
export function shareLine(title, days, share) {
  const root = frame(title);
  const area = plot();
  const band = (area.x1 - area.x0) / days.length;
  grid(root, area, 1, formatShare);
  let path = "";
  let drawing = false;
  const dots = [];
  days.forEach((day, i) => {
    const value = share(day);
    if (value === null) {
      drawing = false;
      return;
    }
    const x = area.x0 + band * (i + 0.5);
    const y = area.y0 - (area.y0 - area.y1) * value;
    path += `${drawing ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)} `;
    drawing = true;
    const dot = svg("circle", { cx: x, cy: y, r: days.length > 120 ? 1.5 : 3, class: "dot" });
    dot.append(svg("title", {}, `${formatDate(day.date)}: ${formatShare(value)}`));
    dots.push(dot);
  });
  if (path) root.append(svg("path", { d: path.trim(), class: "line" }));
  root.append(...dots);
  dayLabels(root, area, days, band);
  return root;
}

/** Horizontal bars, one per item ({label, cls, value}), scaled to the largest. */
export function horizontalBars(title, items) {
  const rowHeight = 40;
  const height = items.length * rowHeight + 8;
  const root = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${height}`, class: "chart-svg", role: "img", "aria-hidden": "true", focusable: "false",
  });
  root.append(svg("title", {}, title));
  const left = 210;
  const right = WIDTH - 90;
  const top = Math.max(1, ...items.map((i) => i.value));
  items.forEach((item, i) => {
    const y = 8 + i * rowHeight;
    root.append(svg("text", { x: 0, y: y + 21, class: "label" }, item.label));
    root.append(svg("rect", { x: left, y, width: right - left, height: 28, class: "track" }));
    if (item.value > 0) {
      root.append(svg("rect", { x: left, y, width: ((right - left) * item.value) / top, height: 28, class: `bar ${item.cls}` }));
    }
    root.append(svg("text", { x: right + 8, y: y + 21, class: "label value" }, formatCount(item.value)));
  });
  return root;
}

/** A meter from 0 % to 100 % filled to `rate`. */
export function meter(title, rate) {
  const root = svg("svg", {
    viewBox: `0 0 ${WIDTH} 56`, class: "chart-svg meter", role: "img", "aria-hidden": "true", focusable: "false",
  });
  root.append(svg("title", {}, title));
  root.append(svg("rect", { x: 0, y: 8, width: WIDTH, height: 28, rx: 6, class: "track" }));
  if (rate > 0) root.append(svg("rect", { x: 0, y: 8, width: WIDTH * Math.min(1, rate), height: 28, rx: 6, class: "bar s-passkey" }));
  root.append(svg("text", { x: 0, y: 52, class: "tick" }, formatShare(0)));
  root.append(svg("text", { x: WIDTH, y: 52, class: "tick", "text-anchor": "end" }, formatShare(1)));
  return root;
}

/** A colour key for a chart's series. */
export function legend(series) {
  const list = el("ul", { class: "legend", "aria-hidden": "true" });
  for (const s of series) {
    const item = el("li");
    item.append(el("span", { class: `swatch ${s.cls}` }), s.label);
    list.append(item);
  }
  return list;
}

/** The readable numbers beside a chart: [{key, label, value, text}] → <dl>; `data-figure` and
 * `data-value` carry the key and the raw number (for the browser test). */
export function figures(entries) {
  const list = el("dl", { class: "figures" });
  for (const entry of entries) {
    const group = el("div");
    group.append(el("dt", {}, entry.label));
    group.append(el("dd", { "data-figure": entry.key, "data-value": entry.value }, entry.text));
    list.append(group);
  }
  return list;
}

/** The table view: a real <table> with caption and headers, for screen readers (and for anyone
 * after "Show tables"). `rows` = [[row header, …cells]]. */
export function table(caption, headers, rows) {
  const wrapper = el("div", { class: "figures-table" });
  const element = el("table");
  element.append(el("caption", {}, caption));
  const head = el("thead");
  const headRow = el("tr");
  for (const header of headers) headRow.append(el("th", { scope: "col" }, header));
  head.append(headRow);
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, row[0]));
    for (const cell of row.slice(1)) tr.append(el("td", {}, cell));
    body.append(tr);
  }
  element.append(head, body);
  wrapper.append(element);
  return wrapper;
}

/** The clear message a chart shows instead of empty axes. */
export function empty(text) {
  return el("p", { class: "empty" }, text);
}
