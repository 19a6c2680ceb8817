import { graphql } from './api.js';
import { pageWindow } from './pages.js';
import { centsToUnits, csvRows, download, LINE_COLUMNS } from './csv.js';
import { announce, h, replace } from './dom.js';
import { number } from './format.js';

// The whole result as one CSV file, not just the page on screen: the lines are read 100 at a time
// (the API's largest page) with the view's filters and sort, page after page (offset cursors: a
// pageInfo selection would take the document past the graph's cost limit), each page written as a text part of a
// Blob, so a long export never holds one giant string. Patient fields come as the server sends
// them: masked for a role without patients:read, so the file shows no more than the screen.

const PER_PAGE = 100;
// The file's amounts are in currency units, so they keep the contract's `...Amount` names (`netAmount_USD`), not the graph's `...Cents`.
const AMOUNTS = new Map([['grossCents', 'grossAmount'], ['discountCents', 'discountAmount'], ['netCents', 'netAmount']]);
// Enum fields come as the graph's names (`WALLET_PAY`); the file keeps the stored spelling (`wallet_pay`),
// as REST's breakdown and files exported before the rename have it.
const CODES = new Set(['source', 'itemType', 'paymentMedium']);
// The file keeps REST's name for the line's instant too (`createdDate`; the graph says `createdAt`).
const RENAMED = new Map([['createdAt', 'createdDate']]);
/** The file's column for an API field: amounts named with their currency, renamed fields as REST names them. */
const fileColumn = (column, currency) => (AMOUNTS.has(column) ? `${AMOUNTS.get(column)}_${currency}` : (RENAMED.get(column) ?? column));
const EXPORT = `query RevenueExport($timezone: String!, $startDate: String, $endDate: String, $locationIds: [ID!], $locationNames: [String!], $providerIds: [ID!], $providerNames: [String!],
  $patientIds: [ID!], $patientNames: [String!], $itemCategories: [String!], $itemTypes: [RevenueItemType!], $itemNames: [String!], $paymentMediums: [PaymentMedium!], $comment: String,
  $minNetCents: SafeInt, $maxNetCents: SafeInt, $groupBy: RevenueGroupBy, $groupKey: String, $sortBy: RevenueBreakdownSortField!, $sortDirection: SortDirection!, $after: String) {
  lines: revenueBreakdown(timezone: $timezone, startDate: $startDate, endDate: $endDate, locationIds: $locationIds, locationNames: $locationNames, providerIds: $providerIds, providerNames: $providerNames,
    patientIds: $patientIds, patientNames: $patientNames, itemCategories: $itemCategories, itemTypes: $itemTypes, itemNames: $itemNames, paymentMediums: $paymentMediums, comment: $comment,
    minNetCents: $minNetCents, maxNetCents: $maxNetCents, groupBy: $groupBy, groupKey: $groupKey, sortBy: $sortBy, sortDirection: $sortDirection, first: ${PER_PAGE}, after: $after) {
    totalCount nodes { ${LINE_COLUMNS.join(' ')} }
  }
}`;

/** The exported file's header: the API's field names, amounts named with their currency (`netAmount_USD`), as they are in its units. */
export const exportColumns = (currency) => LINE_COLUMNS.map((column) => fileColumn(column, currency));

/** One API line as a row of the file: amounts from integer cents to currency units, exactly; codes in lower case. */
function exportRow(line, currency) {
  const row = {};
  for (const column of LINE_COLUMNS) {
    const value = line[column];
    row[fileColumn(column, currency)] = AMOUNTS.has(column) ? centsToUnits(value) : CODES.has(column) && typeof value === 'string' ? value.toLowerCase() : value;
  }
  return row;
}

/**
 * An "Export CSV" control for the lines of `variables` (the view's filters, group and sort as
 * GraphQL variables): a button that, once clicked, shows a progress bar ("n of total lines") and a
 * Cancel button while it pages through the lines, then offers one file.
 */
export function exportControl({ variables, total, currency, fileName = 'revenue-lines.csv' }) {
  const slot = h('div', { className: 'export' });
  let cancelled = false;
  const idle = () => replace(slot, h('button', { type: 'button', disabled: total === 0, onClick: () => void run() }, `Export CSV (all ${number(total)} lines)`));

  async function run() {
    cancelled = false;
    const progress = h('progress', { max: Math.max(total, 1), value: 0, 'aria-label': 'Lines exported' });
    const status = h('span', { role: 'status' }, `0 of ${number(total)} lines`);
    replace(slot, progress, ' ', status, ' ', h('button', { type: 'button', onClick: () => (cancelled = true) }, 'Cancel'));
    const columns = exportColumns(currency);
    const parts = [csvRows(columns, [Object.fromEntries(columns.map((c) => [c, c]))])];
    let written = 0;
    try {
      for (let page = 1, pages = 1; page <= pages; page += 1) {
        const { lines } = await graphql(EXPORT, { ...variables, after: pageWindow(page, PER_PAGE).after });
        // Leaving the view (another filter, another page) ends the export as Cancel does.
        if (cancelled || !slot.isConnected) break;
        pages = Math.ceil(lines.totalCount / PER_PAGE);
        parts.push(csvRows(columns, lines.nodes.map((line) => exportRow(line, currency))));
        written += lines.nodes.length;
        // The total is the API's, page by page: lines recorded meanwhile show in it.
        progress.max = Math.max(lines.totalCount, written, 1);
        progress.value = written;
        status.textContent = `${number(written)} of ${number(lines.totalCount)} lines`;
      }
    } catch (error) {
      replace(slot, h('span', { className: 'error-box', role: 'alert' }, `The export stopped: ${error.message}`), ' ', h('button', { type: 'button', onClick: () => void run() }, 'Try again'));
      return;
    }
    if (cancelled || !slot.isConnected) {
      idle();
      announce('Export cancelled');
      return;
    }
    download(fileName, new Blob(parts, { type: 'text/csv;charset=utf-8' }));
    idle();
    announce(`Exported ${written} lines`);
  }

  idle();
  return slot;
}
