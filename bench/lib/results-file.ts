import fs from 'node:fs';

/**
 * Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` in a Markdown file,
 * appending the section when absent and creating the file with `header` when missing, so
 * each benchmark owns its section and leaves the others intact.
 */
export function writeSection(file: string, name: string, body: string, header: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `${header.trim()}\n`;
  const from = current.indexOf(start);
  const to = current.indexOf(end, from);
  const next =
    from >= 0 && to >= 0
      ? current.slice(0, from) + section + current.slice(to + end.length)
      : `${current.replace(/\s*$/, '')}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}
