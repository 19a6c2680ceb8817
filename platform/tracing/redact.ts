/** Longest SQL text kept on a span; a bulk insert's placeholders would otherwise fill the export. */
const MAX_SQL_LENGTH = 2_000;

/**
 * String literals (plain, E'...' with backslash escapes, $tag$...$tag$), quoted identifiers, and
 * numbers not part of a name or a `$n` placeholder. Identifiers are matched only so that what they
 * contain is left alone.
 */
const SQL_TOKENS = /[Ee]'(?:[^'\\]|\\.|'')*'|'(?:[^']|'')*'|\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$|("(?:[^"]|"")*")|(?<![\w$.])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * The statement with every literal replaced by `?`. MikroORM writes the values into the SQL text
 * it sends (docs/architecture.md, Stack notes), so the raw text of an insert holds a patient's name;
 * only the statement's shape may reach a span (docs/tracing.md).
 */
export function sanitizeSql(sql: string): string {
  const shape = sql.replace(SQL_TOKENS, (token, _tag, identifier) => (identifier ? token : '?'));
  return shape.length > MAX_SQL_LENGTH ? `${shape.slice(0, MAX_SQL_LENGTH)}...` : shape;
}

/** A URL without its query string or credentials: what an outgoing call's span may show. */
export function urlWithoutQuery(url: URL | string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}
