// CSV of the rows on screen (RFC 4180: comma separated, CRLF, quotes doubled).

/** The columns of an exported revenue line, in the API's field names; amounts stay integer cents as the API gives them. */
export const LINE_COLUMNS = ['id', 'createdDate', 'localDate', 'source', 'locationId', 'locationName', 'providerId', 'providerName', 'patientId', 'patientName', 'itemCategory', 'itemType', 'itemName', 'paymentMedium', 'grossAmount', 'discountAmount', 'netAmount', 'comment'];

function cell(value) {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A text cell starting like a formula would run as one in a spreadsheet (CSV injection): keep it text.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document of `rows` with a header line of `columns`. */
export function toCsv(columns, rows) {
  return [columns, ...rows.map((row) => columns.map((c) => row[c]))].map((line) => line.map(cell).join(',')).join('\r\n') + '\r\n';
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
