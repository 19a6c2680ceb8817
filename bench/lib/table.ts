/** A Markdown table with padded columns, readable both on a terminal and rendered. */
export function markdownTable(header: string[], rows: string[][], rightAligned: boolean[] = []): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0), 3));
  const pad = (cell: string, i: number) => (rightAligned[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]));
  const line = (cells: string[]) => `| ${cells.map(pad).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (rightAligned[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
