import { h, replace } from './dom.js';
import { bucket, memberValue, money, number } from './format.js';

/** Every ChartType of the API, in the schema's order; a test checks it against schema/supergraph.graphql. */
export const CHART_TYPES = [
  ['line', 'Line'],
  ['bar', 'Bar'],
  ['area', 'Area'],
  ['pie', 'Pie'],
  ['table', 'Table'],
  ['kpi', 'KPI (single figure)'],
];

const MAX_SERIES = 12;
const live = new Set();
const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

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

function categoryLabel(value, annotation) {
  if (value === null || value === undefined) return '(none)';
  return annotation?.type === 'time' ? bucket(value, annotation.granularity?.name) : String(value);
}

/** Categories and series for line, bar and area: one series per measure, or per value of a second grouping. */
function cartesian(result, shape) {
  const { categoryKey, splitKey, measureKeys, describe } = shape;
  const rows = result.data;
  const categories = categoryKey ? [...new Set(rows.map((row) => row[categoryKey]))] : ['Total'];
  const index = new Map(categories.map((c, i) => [c, i]));
  const at = (row) => (categoryKey ? index.get(row[categoryKey]) : 0);
  let series;
  if (splitKey) {
    const measure = measureKeys[0];
    const groups = new Map();
    for (const row of rows) {
      const name = categoryLabel(row[splitKey], describe(splitKey));
      if (!groups.has(name)) groups.set(name, { raw: row[splitKey], data: new Array(categories.length).fill(null) });
      groups.get(name).data[at(row)] = row[measure];
    }
    series = [...groups].slice(0, MAX_SERIES).map(([name, { raw, data }]) => ({ name, raw, data, unit: describe(measure)?.meta?.unit }));
  } else {
    series = measureKeys.map((key) => {
      const data = new Array(categories.length).fill(null);
      for (const row of rows) data[at(row)] = row[key];
      return { name: describe(key)?.shortTitle ?? key, data, unit: describe(key)?.meta?.unit };
    });
  }
  return { raw: categories, categories: categories.map((c) => categoryLabel(c, categoryKey ? describe(categoryKey) : null)), series };
}

const compactMoney = (cents) => money(cents).replace(/\.00$/, '');
/** What an axis counts in: cents (money) or anything else (counts and plain numbers). */
const unitOf = (unit) => (unit === 'cents' ? 'cents' : 'count');
const formatter = (unit) => (value) => (unit === 'cents' ? money(value) : number(value));

/** The ECharts option of a widget's answer for line, bar, area or pie. */
export function chartOption(chartType, result) {
  const shape = rowShape(result);
  const base = { animation: !reducedMotion(), aria: { enabled: true }, tooltip: {}, textStyle: { fontFamily: 'inherit' } };
  if (chartType === 'pie') {
    const measure = shape.measureKeys[0];
    const data = result.data.map((row) => ({ name: categoryLabel(shape.categoryKey ? row[shape.categoryKey] : 'Total', shape.categoryKey ? shape.describe(shape.categoryKey) : null), value: row[measure] }));
    return {
      ...base,
      tooltip: { trigger: 'item', valueFormatter: formatter(shape.describe(measure)?.meta?.unit) },
      legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle' },
      series: [{ type: 'pie', name: shape.describe(measure)?.shortTitle ?? measure, radius: ['35%', '70%'], center: ['38%', '50%'], label: { show: false }, data }],
    };
  }
  const { categories, series } = cartesian(result, shape);
  // One axis per unit (issue 34): money and counts never share an axis or a format; counts go on a second axis on the right.
  const units = [...new Set(series.map((s) => unitOf(s.unit)))];
  return {
    ...base,
    tooltip: { trigger: 'axis' },
    legend: series.length > 1 ? { type: 'scroll', top: 0 } : undefined,
    grid: { left: 16, right: 16, top: series.length > 1 ? 32 : 16, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: categories, boundaryGap: chartType === 'bar', axisLabel: { hideOverlap: true } },
    yAxis: (units.length ? units : ['count']).map((unit, index) => ({
      type: 'value',
      name: units.length > 1 ? (unit === 'cents' ? 'Amount' : 'Count') : undefined,
      position: index === 0 ? 'left' : 'right',
      splitLine: { show: index === 0 },
      axisLabel: { formatter: unit === 'cents' ? compactMoney : (v) => number(v) },
    })),
    series: series.map((s) => ({
      type: chartType === 'bar' ? 'bar' : 'line',
      name: s.name,
      data: s.data,
      yAxisIndex: units.indexOf(unitOf(s.unit)),
      tooltip: { valueFormatter: formatter(s.unit) },
      ...(chartType === 'area' ? { areaStyle: { opacity: 0.35 }, stack: shape.splitKey ? 'total' : undefined } : {}),
      ...(chartType === 'line' ? { showSymbol: s.data.length < 40 } : {}),
    })),
  };
}

function table(result, caption) {
  const shape = rowShape(result);
  const keys = [...(shape.timeKey ? [shape.timeKey] : []), ...shape.dimensionKeys, ...shape.measureKeys];
  const head = h('tr', {}, keys.map((key) => h('th', { scope: 'col', className: shape.describe(key)?.type === 'number' ? 'num' : '' }, shape.describe(key)?.shortTitle ?? key)));
  const rows = result.data.map((row) => h('tr', {}, keys.map((key) => h('td', { className: shape.describe(key)?.type === 'number' ? 'num' : '' }, memberValue(row[key], shape.describe(key))))));
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
 * Draws an answer into `container` as `chartType` (ECharts for line/bar/area/pie, HTML for table and kpi).
 * `onPick(members)`, when given, is called with pickedMembers() when a bar, slice or point is clicked.
 */
export function draw(container, chartType, result, caption, { onPick } = {}) {
  disposeIn(container);
  if (result.data.length === 0 && chartType !== 'kpi') {
    replace(container, h('p', { className: 'empty' }, 'No data for this query.'));
    return;
  }
  if (chartType === 'table') return void replace(container, table(result, caption));
  if (chartType === 'kpi') return void replace(container, kpi(result));
  const target = h('div', { className: 'chart', role: 'img', 'aria-label': caption });
  replace(container, target);
  const chart = window.echarts.init(target, null, { renderer: 'svg' });
  // A hidden title: ECharts' aria description starts from it ("This is a chart about ...").
  chart.setOption({ ...chartOption(chartType, result), title: { text: caption, show: false } });
  if (onPick) {
    chart.on('click', (params) => onPick(pickedMembers(result, params)));
    target.classList.add('pickable');
  }
  const observer = new ResizeObserver(() => chart.resize());
  observer.observe(target);
  live.add({ chart, observer, target });
}

/** The chart drawn inside `container` as a PNG Blob (twice the screen's pixels, on the page's background), or null if none is drawn there. */
export async function chartPng(container, background = '#ffffff') {
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
