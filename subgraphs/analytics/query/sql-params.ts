import { isInstantText } from './civil-time';

/**
 * Bind parameters of one statement: every value from a request travels as `$n`, never inside
 * the SQL text. The text itself is assembled only from the model's identifiers and fixed keywords.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /**
   * A placeholder for a value many expressions share (the time zone), added on first use only:
   * PostgreSQL cannot type a parameter the statement never mentions.
   */
  shared(value: unknown): () => string {
    let placeholder: string | undefined;
    return () => (placeholder ??= this.add(value));
  }
}

/** The time zone's placeholder, fetched only where an expression needs it. */
export type ZoneRef = () => string;

/** `created_at`-style bounds: a wall-clock text is read in the zone (`tz`); an instant text as is. */
export function lowerBoundSql(params: SqlParams, column: string, text: string, tz: ZoneRef): string {
  return isInstantText(text) ? `${column} >= ${params.add(text)}::timestamptz` : `${column} >= (${params.add(text)}::timestamp at time zone ${tz()})`;
}

/**
 * The inclusive upper bound of a range. Wall-clock ends are millisecond-precise texts (`...59.999`)
 * while rows keep microseconds, so the test is "before the next millisecond", not "<= the text".
 */
export function upperBoundSql(params: SqlParams, column: string, text: string, tz: ZoneRef): string {
  return isInstantText(text)
    ? `${column} <= ${params.add(text)}::timestamptz`
    : `${column} < ((${params.add(text)}::timestamp + interval '1 millisecond') at time zone ${tz()})`;
}

/** A single point in time as SQL: a wall-clock text in the zone, or an instant. */
export function pointSql(params: SqlParams, text: string, tz: ZoneRef): string {
  return isInstantText(text) ? `${params.add(text)}::timestamptz` : `(${params.add(text)}::timestamp at time zone ${tz()})`;
}


/** The instant a range starts at, as SQL (the lower bound's value, inclusive). */
export function lowerBoundValue(params: SqlParams, text: string, tz: ZoneRef): string {
  return pointSql(params, text, tz);
}

/**
 * The first instant after a range, as SQL: what `upperBoundSql` compares to, made exclusive. An
 * instant end is inclusive and timestamptz counts microseconds, so the next one is the exclusive end.
 */
export function upperBoundExclusiveValue(params: SqlParams, text: string, tz: ZoneRef): string {
  return isInstantText(text)
    ? `(${params.add(text)}::timestamptz + interval '1 microsecond')`
    : `((${params.add(text)}::timestamp + interval '1 millisecond') at time zone ${tz()})`;
}
