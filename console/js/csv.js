// CSV of revenue lines (RFC 4180: comma separated, CRLF, quotes doubled).

/** The fields of a revenue line the explorer reads and exports, in the API's names (amounts in integer cents there; revenue-export.js writes them in units). */
export const LINE_COLUMNS = ['id', 'createdAt', 'localDate', 'source', 'locationId', 'locationName', 'providerId', 'providerName', 'patientId', 'patientName', 'itemCategory', 'itemType', 'itemName', 'paymentMedium', 'grossCents', 'discountCents', 'netCents', 'comment'];

function cell(value) {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A text cell starting like a formula would run as one in a spreadsheet (CSV injection): keep it text.
  // A plain negative number (an amount, `-0.05`) is no formula and stays a number.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV lines (each ending CRLF) of `rows`' `columns`, no header: one part of a document written page by page. */
export function csvRows(columns, rows) {
  return rows.map((row) => columns.map((c) => cell(row[c])).join(',') + '\r\n').join('');
}

/** A CSV document of `rows` with a header line of `columns`. */
export function toCsv(columns, rows) {
  return csvRows(columns, [Object.fromEntries(columns.map((c) => [c, c])), ...rows]);
}

/**
 * Integer cents as the currency's units, exactly (`123456` → `'1234.56'`, `-5` → `'-0.05'`): digits
 * moved by text, never divided as floats, so no amount gains a binary rounding error on its way out.
 */
export function centsToUnits(cents) {
  if (cents === null || cents === undefined) return null;
  if (!Number.isSafeInteger(cents)) throw new TypeError(`not integer cents: ${cents}`);
  const digits = String(Math.abs(cents)).padStart(3, '0');
  return `${cents < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Offers `content` (a Blob, or CSV text) as a file download (a Blob URL: nothing leaves the browser). */
export function download(fileName, content) {
  const url = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
