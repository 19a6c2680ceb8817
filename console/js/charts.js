import { categoryAxisLabel, pieLayout, textAlternative } from './chart-text.js';
import { h, replace, uid } from './dom.js';
import { bucket, memberValue, money, number } from './format.js';
import { valueLabel } from './labels.js';
import { bucketRun, GRANULARITIES, isAverage, queryRange } from './time-series.js';

/**
 * Every ChartType of the API, in the schema's order and spelling (the graph's SCREAMING_SNAKE_CASE:
 * the console only talks GraphQL, so a widget's chartType is used as sent); a test checks it against schema/supergraph.graphql.
 */
export const CHART_TYPES = [
  ['LINE', 'Line'],
  ['BAR', 'Bar'],
  ['AREA', 'Area'],
  ['PIE', 'Pie'],
  ['TABLE', 'Table'],
  ['KPI', 'KPI (single figure)'],
];

const MAX_SERIES = 12;
const live = new Set();
const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
const darkScheme = window.matchMedia?.('(prefers-color-scheme: dark)') ?? null;
// A chart drawn before the setting changed is drawn again in the new scheme (ECharts themes are fixed at init).
darkScheme?.addEventListener?.('change', () => {
  for (const entry of [...live]) if (entry.container.isConnected) draw(entry.container, ...entry.args);
});

/** Which keys of the rows play which part, read from the answer's annotation (Cube's /load shape). */
export function rowShape(result) {
  const { annotation } = result;
  const timeKey = Object.entries(annotation.timeDimensions ?? {}).find(([key, a]) => a.granularity && key.endsWith(`.${a.granularity.name}`))?.[0] ?? null;
  const dimensionKeys = Object.keys(annotation.dimensions ?? {});
  const measureKeys = Object.keys(annotation.measures ?? {});
  const categoryKey = timeKey ?? dimensionKeys[0] ?? null;
  const splitKey = timeKey ? dimensionKeys[0] ?? null : dimensionKeys[1] ?? null;
  const describe = (key) => annotation.measures?.[key] ?? annotation.dimensions?.[key] ?? annotation.timeDimensions?.[key];
  return { timeKey, dimensionKeys, measureKeys, categoryKey, splitKey, describe };
}

/** A category or series value as people read it: a time bucket as a date, a code by its label (`wallet_pay` is "Wallet pay"). */
function categoryLabel(value, annotation, member) {
  if (value === null || value === undefined) return '(none)';
  return annotation?.type === 'time' ? bucket(value, annotation.granularity?.name) : valueLabel(member, value);
}

/** A member's column heading: its short title, with the time grain for a time bucket ("Created at (Month)"). */
function heading(shape, key) {
  const a = shape.describe(key);
  if (!a) return key ?? '';
  return a.type === 'time' && a.granularity ? `${a.shortTitle} (${a.granularity.title})` : a.shortTitle ?? key;
}

/**
 * The categories along the axis, raw. A time bucket axis is in date order with every bucket from the first to
 * the last (widened to the query's dateRange, up to today), so a missing day shows as 0 rather than a line skipping it.
 */
function categoriesOf(result, shape) {
  const { categoryKey, timeKey, describe } = shape;
  if (!categoryKey) return { categories: ['Total'], timeline: false };
  const present = [...new Set(result.data.map((row) => row[categoryKey]))];
  const grain = timeKey ? describe(timeKey)?.granularity?.name : null;
  if (!timeKey || !GRANULARITIES.includes(grain)) return { categories: present, timeline: false };
  const member = timeKey.slice(0, -(grain.length + 1));
  const run = bucketRun(present, grain, queryRange(result.query, member));
  const known = new Set(run);
  return { categories: [...run, ...present.filter((c) => !known.has(c))], timeline: true };
}

/** Categories and series for line, bar and area: one series per measure, or per value of a second grouping. */
function cartesian(result, shape) {
  const { categoryKey, splitKey, measureKeys, describe } = shape;
  const rows = result.data;
  const { categories, timeline } = categoriesOf(result, shape);
  const index = new Map(categories.map((c, i) => [c, i]));
  const at = (row) => (categoryKey ? index.get(row[categoryKey]) : 0);
  // On a time axis a bucket without lines counts 0 and sums to 0; an average of no lines has no value.
  const blank = (key) => new Array(categories.length).fill(timeline && !isAverage(key, describe(key)) ? 0 : null);
  let series;
  if (splitKey) {
    const measure = measureKeys[0];
    const groups = new Map();
    for (const row of rows) {
      const raw = row[splitKey] ?? null;
      if (!groups.has(raw)) groups.set(raw, blank(measure));
      groups.get(raw)[at(row)] = row[measure];
    }
    series = [...groups].slice(0, MAX_SERIES).map(([raw, data]) => ({ name: categoryLabel(raw, describe(splitKey), splitKey), raw, data, unit: describe(measure)?.meta?.unit }));
  } else {
    series = measureKeys.map((key) => {
      const data = blank(key);
      for (const row of rows) data[at(row)] = row[key];
      return { name: describe(key)?.shortTitle ?? key, data, unit: describe(key)?.meta?.unit };
    });
  }
  return { raw: categories, timeline, categories: categories.map((c) => categoryLabel(c, categoryKey ? describe(categoryKey) : null, categoryKey)), series };
}

const compactMoney = (cents) => money(cents).replace(/\.00$/, '');
/** What an axis counts in: cents (money) or anything else (counts and plain numbers). */
const unitOf = (unit) => (unit === 'cents' ? 'cents' : 'count');
const formatter = (unit) => (value) => (unit === 'cents' ? money(value) : number(value));
// Before the chart has a size (or outside a page), its labels are laid out for a typical widget.
const DEFAULT_WIDTH = 600;

/**
 * What a chart shows, worked out once: its ECharts option, its text alternative (heading and rows, values
 * formatted) and `layout(width)`, the part of the option that depends on the chart's width.
 */
function plan(chartType, result, width, fontFamily = 'sans-serif') {
  const shape = rowShape(result);
  // ECharts' own aria stays off: it reads raw numbers (cents); the chart's text alternative is ours (draw()).
  // The page's own font, named: ECharts measures labels on a canvas, where `inherit` is no font, so cut and turned labels would be measured too short.
  const base = { animation: !reducedMotion(), aria: { enabled: false }, backgroundColor: 'transparent', tooltip: {}, textStyle: { fontFamily } };
  if (chartType === 'PIE') {
    const measure = shape.measureKeys[0];
    const unit = shape.describe(measure)?.meta?.unit;
    const names = result.data.map((row) => (shape.categoryKey ? categoryLabel(row[shape.categoryKey], shape.describe(shape.categoryKey), shape.categoryKey) : 'Total'));
    const layout = (w) => {
      const { legend, center, radius } = pieLayout(w || DEFAULT_WIDTH);
      return { legend, series: [{ center, radius }] };
    };
    const laid = layout(width);
    return {
      option: {
        ...base,
        tooltip: { trigger: 'item', valueFormatter: formatter(unit) },
        legend: laid.legend,
        series: [{ type: 'pie', name: shape.describe(measure)?.shortTitle ?? measure, ...laid.series[0], label: { show: false }, data: result.data.map((row, i) => ({ name: names[i], value: row[measure] })) }],
      },
      head: [shape.categoryKey ? heading(shape, shape.categoryKey) : '', heading(shape, measure)],
      rows: result.data.map((row, i) => [names[i], formatter(unit)(row[measure])]),
      layout,
    };
  }
  const { categories, series, timeline } = cartesian(result, shape);
  const axisLabel = (w) => categoryAxisLabel(categories, w || DEFAULT_WIDTH, { time: timeline });
  // One axis per unit (issue 34): money and counts never share an axis or a format; counts go on a second axis on the right.
  const units = [...new Set(series.map((s) => unitOf(s.unit)))];
  return {
    option: {
      ...base,
      tooltip: { trigger: 'axis' },
      legend: series.length > 1 ? { type: 'scroll', top: 0 } : undefined,
      grid: { left: 16, right: 16, top: series.length > 1 ? 32 : 16, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: categories, boundaryGap: chartType === 'BAR', axisLabel: axisLabel(width) },
      yAxis: (units.length ? units : ['count']).map((unit, index) => ({
        type: 'value',
        name: units.length > 1 ? (unit === 'cents' ? 'Amount' : 'Count') : undefined,
        position: index === 0 ? 'left' : 'right',
        splitLine: { show: index === 0 },
        axisLabel: { formatter: unit === 'cents' ? compactMoney : (v) => number(v) },
      })),
      // ECharts' own series types are lower-case words; the chart types are the graph's names.
      series: series.map((s) => ({
        type: chartType === 'BAR' ? 'bar' : 'line',
        name: s.name,
        data: s.data,
        yAxisIndex: units.indexOf(unitOf(s.unit)),
        tooltip: { valueFormatter: formatter(s.unit) },
        ...(chartType === 'AREA' ? { areaStyle: { opacity: 0.35 }, stack: shape.splitKey ? 'total' : undefined } : {}),
        ...(chartType === 'LINE' ? { showSymbol: s.data.length < 40 } : {}),
      })),
    },
    head: [shape.categoryKey ? heading(shape, shape.categoryKey) : '', ...series.map((s) => s.name)],
    rows: categories.map((category, i) => [category, ...series.map((s) => formatter(s.unit)(s.data[i]))]),
    layout: (w) => ({ xAxis: { axisLabel: axisLabel(w) } }),
  };
}

/** The ECharts option of a widget's answer for LINE, BAR, AREA or PIE; `width` (pixels) decides how labels fit. */
export function chartOption(chartType, result, { width = DEFAULT_WIDTH, fontFamily } = {}) {
  return plan(chartType, result, width, fontFamily).option;
}

function table(result, caption) {
  const shape = rowShape(result);
  const keys = [...(shape.timeKey ? [shape.timeKey] : []), ...shape.dimensionKeys, ...shape.measureKeys];
  const head = h('tr', {}, keys.map((key) => h('th', { scope: 'col', className: shape.describe(key)?.type === 'number' ? 'num' : '' }, shape.describe(key)?.shortTitle ?? key)));
  const rows = result.data.map((row) => h('tr', {}, keys.map((key) => h('td', { className: shape.describe(key)?.type === 'number' ? 'num' : '' }, memberValue(row[key], shape.describe(key), key)))));
  return h('div', { className: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption }, h('table', {}, h('caption', { className: 'visually-hidden' }, caption), h('thead', {}, head), h('tbody', {}, rows)));
}

function kpi(result) {
  const shape = rowShape(result);
  const row = result.data[0] ?? {};
  const [main, ...rest] = shape.measureKeys;
  return h(
    'div',
    { className: 'kpi' },
    h('p', { className: 'kpi-value' }, memberValue(row[main] ?? 0, shape.describe(main))),
    h('p', { className: 'kpi-label' }, shape.describe(main)?.shortTitle ?? main ?? ''),
    rest.map((key) => h('p', { className: 'kpi-more' }, `${shape.describe(key)?.shortTitle ?? key}: ${memberValue(row[key], shape.describe(key))}`)),
  );
}

/**
 * The part of a row a clicked mark stands for, keyed by member name: `{ 'revenue.provider': 'Dr. Ada' }`
 * for a bar, the time bucket too for a point of a split line (`'revenue.createdAt.month': '2026-03-01T00:00:00.000'`).
 * Measures are not included: a mark is a set of lines, not a value.
 */
export function pickedMembers(result, params) {
  const shape = rowShape(result);
  const picked = {};
  if (params.componentType !== 'series') return picked;
  if (params.seriesType === 'pie') {
    if (shape.categoryKey) picked[shape.categoryKey] = result.data[params.dataIndex]?.[shape.categoryKey] ?? null;
    return picked;
  }
  const { raw, series } = cartesian(result, shape);
  if (shape.categoryKey) picked[shape.categoryKey] = raw[params.dataIndex] ?? null;
  if (shape.splitKey) picked[shape.splitKey] = series[params.seriesIndex]?.raw ?? null;
  return picked;
}

/**
 * Draws an answer into `container` as `chartType`, a ChartType (ECharts for LINE/BAR/AREA/PIE, HTML for TABLE and KPI).
 * `onPick(members)`, when given, is called with pickedMembers() when a bar, slice or point is clicked.
 * A chart is an image named by `caption` and described by a hidden table of its figures, formatted.
 */
export function draw(container, chartType, result, caption, options = {}) {
  disposeIn(container);
  if (result.data.length === 0 && chartType !== 'KPI') {
    replace(container, h('p', { className: 'empty' }, 'No data for this query.'));
    return;
  }
  if (chartType === 'TABLE') return void replace(container, table(result, caption));
  if (chartType === 'KPI') return void replace(container, kpi(result));
  const textId = uid('chart-text');
  const target = h('div', { className: 'chart', role: 'img', 'aria-label': caption, 'aria-describedby': textId });
  // The drawn SVG has a fixed size: without containment it would hold its grid cell at the old width when the window narrows.
  target.style.contain = 'inline-size';
  replace(container, target);
  let width = target.clientWidth;
  // The font's name in single quotes: ECharts writes it into SVG attributes quoted with double ones, and a `"` there makes the SVG (and its PNG export) unreadable.
  const { option, head, rows, layout } = plan(chartType, result, width, (getComputedStyle(target).fontFamily || '').replaceAll('"', "'") || undefined);
  container.append(textAlternative(textId, caption, head, rows));
  const chart = window.echarts.init(target, darkScheme?.matches ? 'dark' : null, { renderer: 'svg' });
  chart.setOption(option);
  if (options.onPick) {
    chart.on('click', (params) => options.onPick(pickedMembers(result, params)));
    target.classList.add('pickable');
  }
  const observer = new ResizeObserver(() => {
    if (target.clientWidth !== width && target.clientWidth > 0) chart.setOption(layout((width = target.clientWidth)));
    chart.resize();
  });
  observer.observe(target);
  live.add({ chart, observer, target, container, args: [chartType, result, caption, options] });
}

/** The chart drawn inside `container` as a PNG Blob (twice the screen's pixels, on the page's background: dark for a dark chart), or null if none is drawn there. */
export async function chartPng(container, background = getComputedStyle(document.body).backgroundColor) {
  const entry = [...live].find((e) => container.contains(e.target));
  if (!entry) return null;
  const scale = 2;
  const { width, height } = entry.target.getBoundingClientRect();
  // The SVG renderer exports SVG only: the SVG is drawn onto a canvas (a data: image, which the CSP allows) and read back as PNG.
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(entry.chart.renderToSVGString())}`;
  await image.decode();
  const canvas = Object.assign(document.createElement('canvas'), { width: Math.round(width * scale), height: Math.round(height * scale) });
  const context = canvas.getContext('2d');
  context.fillStyle = background;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

/** Frees the charts drawn inside `root` (a view being left, a widget redrawn). */
export function disposeIn(root) {
  for (const entry of live) {
    if (!root.contains(entry.target)) continue;
    entry.observer.disconnect();
    entry.chart.dispose();
    live.delete(entry);
  }
}
