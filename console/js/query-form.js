import { graphql } from './api.js';
import { field, h, select, uid } from './dom.js';

// The query part of the composer: every choice comes from the API's query model (members,
// granularities, operators per type), so the form can only build queries the API knows the words of;
// whether the values are right is still the API's call (its 422s land next to these fields).

/** Relative ranges of the API's grammar offered in the picker (docs/api.md, Query rules). */
const DATE_RANGES = ['today', 'yesterday', 'this week', 'this month', 'this quarter', 'this year', 'last 7 days', 'last 30 days', 'last week', 'last month', 'last quarter', 'last year', 'last 12 months', 'last 8 quarters'];

const checkboxGroup = (legend, errorKey, members, chosen) => {
  const boxes = members.map((m) => h('label', { className: 'check', title: m.description }, h('input', { type: 'checkbox', value: m.name, checked: chosen.includes(m.name) }), ` ${m.shortTitle}`));
  const error = h('p', { className: 'field-error', id: uid('err'), hidden: true });
  return h('fieldset', { className: 'checks', dataset: { errorKey }, 'aria-describedby': error.id }, h('legend', {}, legend), error, h('div', { className: 'check-list' }, boxes));
};

const checked = (fieldset) => [...fieldset.querySelectorAll('input:checked')].map((box) => box.value);
const numberOr = (text) => (text.trim() === '' ? undefined : Number(text));

/** Builds the query fields of the composer from `model`, filled from `query`; `build()` reads them back into a Cube query. */
export function queryForm(model, query = {}, tenantTimezone = 'UTC') {
  const cube = model.cubes[0];
  const plain = cube.dimensions.filter((d) => d.type !== 'time');
  const times = cube.dimensions.filter((d) => d.type === 'time');
  const operatorsOf = (type) => model.operators.find((o) => o.type === type)?.operators ?? [];
  const memberType = (name) => [...cube.measures, ...cube.dimensions].find((m) => m.name === name)?.type ?? 'string';

  const measures = checkboxGroup('Measures', 'measures', cube.measures, query.measures ?? []);
  const dimensions = checkboxGroup('Group by', 'dimensions', plain, query.dimensions ?? []);

  const [time, ...otherTimes] = query.timeDimensions ?? [];
  const timeDimension = select([['', 'None'], ...times.map((t) => [t.name, t.shortTitle])], { name: 'timeDimension', value: time?.dimension ?? '' });
  const granularity = select([['', 'No grouping (one total)'], ...model.granularities.map((g) => [g, g[0].toUpperCase() + g.slice(1)])], { name: 'granularity', value: time?.granularity ?? '' });
  const storedRange = typeof time?.dateRange === 'string' ? time.dateRange : '';
  const ranges = DATE_RANGES.includes(storedRange) || storedRange === '' ? DATE_RANGES : [...DATE_RANGES, storedRange];
  const isCustom = Array.isArray(time?.dateRange);
  const dateRange = select([['', 'All time'], ...ranges.map((r) => [r, r[0].toUpperCase() + r.slice(1)]), ['custom', 'Custom dates…']], { name: 'dateRange', value: isCustom ? 'custom' : storedRange });
  const from = h('input', { type: 'date', name: 'from', value: isCustom ? String(time.dateRange[0]).slice(0, 10) : '' });
  const to = h('input', { type: 'date', name: 'to', value: isCustom ? String(time.dateRange[1] ?? time.dateRange[0]).slice(0, 10) : '' });
  const custom = h('div', { className: 'row', hidden: !isCustom }, field('From', from), field('To (inclusive)', to));
  dateRange.addEventListener('change', () => (custom.hidden = dateRange.value !== 'custom'));
  const timeSet = h('fieldset', {}, h('legend', {}, 'Time'), h('div', { className: 'row' }, field('Time dimension', timeDimension, { errorKey: 'timeDimension' }), field('Time grain', granularity, { errorKey: 'granularity' }), field('Date range', dateRange, { errorKey: 'dateRange' })), custom);

  // Filters: member and operator picked from the model; values typed, one per line, with the member's known values offered.
  const simpleFilters = (query.filters ?? []).filter((f) => f && !('and' in f) && !('or' in f));
  const kept = (query.filters ?? []).filter((f) => f && ('and' in f || 'or' in f));
  const filterList = h('ol', { className: 'filters' });
  const addFilter = (initial = {}) => filterList.append(filterRow(initial));
  const addButton = h('button', { type: 'button', onClick: () => (addFilter(), filterList.lastElementChild.querySelector('select').focus()) }, 'Add a filter');
  const filterSet = h(
    'fieldset',
    { dataset: { errorKey: 'filters' } },
    h('legend', {}, 'Filters'),
    h('p', { className: 'field-error', hidden: true }),
    filterList,
    kept.length ? h('p', { className: 'hint' }, `${kept.length} and/or filter group${kept.length === 1 ? '' : 's'} made through the API ${kept.length === 1 ? 'is' : 'are'} kept as ${kept.length === 1 ? 'it is' : 'they are'}.`) : null,
    addButton,
  );
  simpleFilters.forEach((f) => addFilter(f));

  function filterRow(initial) {
    const memberOptions = [...cube.dimensions, ...cube.measures].map((m) => [m.name, `${m.shortTitle}${m.type === 'number' ? ' (measure)' : ''}`]);
    const member = select(memberOptions, { name: 'member', value: initial.member ?? initial.dimension ?? plain[0].name });
    const operator = select([], { name: 'operator' });
    const values = h('textarea', { name: 'values', rows: '2', cols: '24' }, '');
    values.value = (initial.values ?? []).join('\n');
    const known = select([['', 'Add a known value…']], { name: 'known' });
    const knownField = field('Known values', known);
    const row = h('li', { className: 'filter card' }, h('p', { className: 'field-error', hidden: true }));
    const refresh = async (keepOperator) => {
      const type = memberType(member.value);
      const current = keepOperator ?? operator.value;
      operator.replaceChildren(...operatorsOf(type).map((o) => h('option', { value: o }, o)));
      if (operatorsOf(type).includes(current)) operator.value = current;
      values.placeholder = type === 'time' ? 'YYYY-MM-DD, one per line' : 'One value per line';
      knownField.hidden = type !== 'string';
      if (type === 'string') {
        // The member's values in the tenant's data, most frequent first: a value that exists, not a guess.
        known.replaceChildren(h('option', { value: '' }, 'Add a known value…'));
        const asked = member.value;
        try {
          const { executeAnalyticsQuery: r } = await graphql('query Known($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }', { q: { dimensions: [asked], measures: [`${cube.name}.count`], limit: 100 } });
          if (member.value === asked) known.append(...r.data.map((d) => d[asked]).filter((v) => v !== null).map((v) => h('option', { value: v }, v)));
        } catch {
          // Suggestions only: the values can still be typed.
        }
      }
    };
    member.addEventListener('change', () => refresh());
    known.addEventListener('change', () => {
      if (!known.value) return;
      values.value = [...values.value.split('\n').filter((v) => v.trim()), known.value].join('\n');
      known.value = '';
    });
    row.append(
      h('div', { className: 'row' }, field('Member', member), field('Operator', operator), field('Values', values), knownField),
      h('button', { type: 'button', className: 'link-button', onClick: () => (row.remove(), addButton.focus()) }, 'Remove this filter'),
    );
    refresh(initial.operator ?? null);
    row.read = () => {
      const list = values.value.split('\n').map((v) => v.trim()).filter(Boolean);
      return { member: member.value, operator: operator.value, ...(['set', 'notSet'].includes(operator.value) ? {} : { values: list }) };
    };
    return row;
  }

  const orderMember = select([['', 'The API’s default'], ...[...cube.measures, ...plain].map((m) => [m.name, m.shortTitle])], { name: 'orderMember' });
  // The query is JSON, in the query engine's words: its directions stay lower-case, unlike the graph's SortDirection.
  const orderDirection = select([['desc', 'Descending'], ['asc', 'Ascending']], { name: 'orderDirection' });
  const order = Array.isArray(query.order) ? query.order[0] : query.order ? Object.entries(query.order)[0] : undefined;
  if (order) [orderMember.value, orderDirection.value] = order;
  const limit = h('input', { type: 'number', name: 'limit', min: '1', step: '1', value: query.limit ?? '', inputmode: 'numeric' });
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zone = query.timezone ?? tenantTimezone;
  const timezone = select([...new Set(['UTC', zone, ...zones])].map((z) => [z, z]), { name: 'timezone', value: zone });
  const shapeSet = h(
    'fieldset',
    {},
    h('legend', {}, 'Order, size and time zone'),
    h('div', { className: 'row' }, field('Sort by', orderMember, { errorKey: 'order' }), field('Direction', orderDirection), field('Row limit', limit, { errorKey: 'limit', hint: `Empty: ${model.defaultLimit}; at most ${model.maxLimit}` }), field('Time zone', timezone, { errorKey: 'timezone' })),
  );

  function build() {
    const built = {};
    const m = checked(measures);
    const d = checked(dimensions);
    if (m.length) built.measures = m;
    if (d.length) built.dimensions = d;
    if (timeDimension.value) {
      const entry = { dimension: timeDimension.value };
      if (granularity.value) entry.granularity = granularity.value;
      if (dateRange.value === 'custom') entry.dateRange = [from.value, to.value];
      else if (dateRange.value) entry.dateRange = dateRange.value;
      built.timeDimensions = [entry, ...otherTimes];
    } else if (otherTimes.length) built.timeDimensions = otherTimes;
    const filters = [...[...filterList.children].map((row) => row.read()), ...kept];
    if (filters.length) built.filters = filters;
    if (orderMember.value) built.order = { [orderMember.value]: orderDirection.value };
    const rows = numberOr(limit.value);
    if (rows !== undefined) built.limit = rows;
    built.timezone = timezone.value;
    return built;
  }

  /** Labels each filter row with the index the API's 422 locations use (`query.filters.<i>`). */
  const numberFilters = () => [...filterList.children].forEach((row, i) => (row.dataset.errorKey = `filters.${i}`));

  return { elements: [measures, dimensions, timeSet, filterSet, shapeSet], build, numberFilters };
}
