// The words around a chart: its text alternative for screen readers, and how its labels fit the space.
import { h } from './dom.js';

/**
 * A chart's text alternative: a visually hidden table (caption, a header row, one row per category),
 * every value already formatted (money, counts, dates) as a person reads it. The chart points at it with aria-describedby.
 */
export function textAlternative(id, caption, head, rows) {
  // The hiding is on a wrapper: a table sizes itself to its content whatever its width, and would stretch the page.
  return h(
    'div',
    { id, className: 'visually-hidden chart-text' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, head.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, rows.map(([first, ...rest]) => h('tr', {}, h('th', { scope: 'row' }, first), rest.map((text) => h('td', {}, text))))),
    ),
  );
}

// The axis font is 12px: about 7px a character on average, 14px a line.
const CHAR_PX = 7;
const LINE_PX = 14;
/** Characters of a category label shown before an ellipsis; the tooltip and the text alternative keep the whole name. */
export const LABEL_CHARS = 22;

/**
 * The x axis labels for `labels` on a chart `width` pixels wide: level when they fit, turned 45° or 90°
 * when they would overlap, each cut with an ellipsis past LABEL_CHARS. Named categories all keep a label
 * (interval 0, nothing hidden for overlapping) while they fit upright; dates may skip some labels on a
 * crowded axis, never a mark.
 */
export function categoryAxisLabel(labels, width, { time = false } = {}) {
  const longest = Math.min(Math.max(1, ...labels.map((l) => String(l).length)), LABEL_CHARS);
  // The plot area: the container less the value axes' labels either side.
  const slot = Math.max(width - 120, 120) / Math.max(labels.length, 1);
  let rotate = 0;
  if (longest * CHAR_PX + 8 > slot) rotate = slot >= LINE_PX * 1.5 ? 45 : 90;
  const base = { rotate, width: LABEL_CHARS * CHAR_PX, overflow: 'truncate', ellipsis: '…' };
  if (time) return { ...base, rotate: slot >= LINE_PX ? rotate : 0, hideOverlap: true };
  // More names than fit even upright: every few are labelled (the tooltip and the text alternative name them all), none drawn over another.
  if (slot < LINE_PX) return { ...base, rotate: 90, interval: 'auto', hideOverlap: true };
  return { ...base, interval: 0, hideOverlap: false };
}

/** A pie's legend: beside the pie, names cut with an ellipsis (whole on hover), or below it on a narrow chart. */
export function pieLayout(width) {
  const narrow = width > 0 && width < 480;
  const textWidth = narrow ? Math.max(width - 60, 80) : Math.min(Math.max(width * 0.34, 90), 220);
  const legend = { type: 'scroll', tooltip: { show: true }, textStyle: { width: textWidth, overflow: 'truncate', ellipsis: '…' } };
  if (narrow) return { legend: { ...legend, orient: 'horizontal', left: 'center', bottom: 0 }, center: ['50%', '42%'], radius: ['30%', '60%'] };
  return { legend: { ...legend, orient: 'vertical', right: 0, top: 'middle' }, center: ['36%', '50%'], radius: ['35%', '70%'] };
}
