import { DriverException, ValidationError as OrmValidationError } from '@mikro-orm/core';
import type { LogFn, Logger, LoggerOptions } from 'pino';

/** How many wrapped errors are looked through (a cycle or a deep chain stops here). */
const MAX_CHAIN = 10;

type PgFields = Error & { code?: unknown; severity?: unknown; table?: unknown; constraint?: unknown; sqlState?: unknown };

/** Stack frames without the first line, which repeats the message (and so whatever the message holds). */
const frames = (error: Error): string | undefined => error.stack?.split('\n').slice(1).join('\n');

/** The errors one error wraps: `cause`, a GraphQL error's `originalError`, an AggregateError's `errors`. */
function wrapped(error: Error): unknown[] {
  const { cause, originalError, errors } = error as Error & { originalError?: unknown; errors?: unknown };
  return [cause, originalError, ...(Array.isArray(errors) ? errors : [])].filter((inner) => inner instanceof Error && inner !== error);
}

/** The error and every error it wraps, breadth first, each once. */
function chainOf(error: Error): Error[] {
  const seen = new Set<Error>([error]);
  const queue = [error];
  for (let i = 0; i < queue.length && queue.length < MAX_CHAIN; i++) {
    for (const inner of wrapped(queue[i]) as Error[]) {
      if (!seen.has(inner) && queue.length < MAX_CHAIN) {
        seen.add(inner);
        queue.push(inner);
      }
    }
  }
  return queue;
}

/**
 * An error whose message or stack may hold a statement's values: MikroORM's driver errors (the
 * SQL with its values inlined), its validation errors (entity values), and pg's own (a SQLSTATE
 * code; values in `detail` and in messages such as `invalid input syntax for type uuid: "..."`).
 */
function fromDatabase(error: Error): boolean {
  const pg = error as PgFields;
  return error instanceof DriverException || error instanceof OrmValidationError || (typeof pg.code === 'string' && /^[0-9A-Z]{5}$/.test(pg.code) && pg.severity !== undefined);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An error's kind: pg names its DatabaseError plain "error", so the class tells more. */
const kindOf = (error: Error): string => (error.name === 'error' && error.constructor?.name ? error.constructor.name : error.name);

/**
 * An Error, or an error-like object rebuilt as one so the same redaction applies: pg-boss emits
 * its workers' errors as plain copies (`{ ...error, message, stack, queue }`), a pg error's
 * SQLSTATE and severity among them.
 */
function asError(value: unknown): Error | undefined {
  if (value instanceof Error) return value;
  if (value === null || typeof value !== 'object' || typeof (value as { message?: unknown }).message !== 'string') return undefined;
  return Object.assign(new Error((value as { message: string }).message), value);
}

/**
 * What of an error may reach a log line. A chain (cause, originalError, AggregateError) holding a
 * database error is logged as kinds, SQLSTATE and table or constraint only: no message and no
 * stack of any error in it, since the stack starts with the message and wrappers quote their
 * cause's message. Any other error keeps message, stack frames and its cause, serialised alike.
 */
export function loggableError(thrown: unknown): Record<string, unknown> {
  const error = asError(thrown);
  if (!error) return { type: typeof thrown };
  const chain = chainOf(error);
  if (chain.some(fromDatabase)) {
    const fields = chain as PgFields[];
    const first = (pick: (e: PgFields) => unknown) => fields.map((e) => text(pick(e))).find((v) => v !== undefined);
    return {
      type: kindOf(error),
      ...(chain.length > 1 ? { wraps: chain.slice(1).map(kindOf) } : {}),
      sqlState: first((e) => e.sqlState) ?? first((e) => e.code),
      table: first((e) => e.table),
      constraint: first((e) => e.constraint),
    };
  }
  return describe(error, chain.length);
}

/** An error without database errors in its chain: kind, message, frames and (depth-limited) cause. */
function describe(error: Error, budget: number): Record<string, unknown> {
  const inner = wrapped(error)[0] as Error | undefined;
  return {
    type: kindOf(error),
    message: error.message,
    stack: frames(error),
    ...(inner && budget > 1 ? { cause: describe(inner, budget - 1) } : {}),
  };
}

/**
 * pino's logMethod hook: an error given as the first argument, or under a key other than `err`,
 * is serialised like `err`, and a line without a message of its own gets the error's kind instead
 * of pino's default, the error's message (which may hold SQL values).
 */
function redactErrors(this: Logger, args: Parameters<LogFn>, method: LogFn): void {
  const [first, ...rest] = args as unknown[];
  if (first === null || typeof first !== 'object' || Array.isArray(first)) return method.apply(this, args);
  let fields = (first instanceof Error ? { err: first } : first) as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (key !== 'err' && value instanceof Error) fields = { ...fields, [key]: loggableError(value) };
  }
  const err = fields.err;
  const message = typeof rest[0] === 'string' || fields.msg !== undefined || !(err instanceof Error) ? rest : [err.name, ...rest];
  return (method as (...all: unknown[]) => void).apply(this, [fields, ...message]);
}

/** The options every process logger takes, so no error's message with SQL values reaches a line. */
export const errorLogOptions: Pick<LoggerOptions, 'serializers' | 'hooks'> = {
  serializers: { err: loggableError },
  hooks: { logMethod: redactErrors },
};
