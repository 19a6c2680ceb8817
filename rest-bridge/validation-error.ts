import type { ValidationIssue } from '../schema/errors';
import { restIssue } from './body-rename';
import type { RouteDefinition, ValidationStyle } from './types';

/**
 * The one place that picks a 422's style: the `detail` array in the style of the route that
 * answers, `full` where no route does (an unknown path, the operator's `/admin`). Every 422 of the
 * bridge is written here, whatever raised it: coercion, the body parser, a guard, an
 * `Idempotency-Key` check, a subgraph's `BAD_USER_INPUT`.
 */
export function validationDetail(issues: ValidationIssue[], route: Pick<RouteDefinition, 'validationStyle'> | undefined): object[] {
  return formatDetail(issues, route?.validationStyle ?? 'full');
}

/**
 * `full` keeps FastAPI's key order `type, loc, msg, input[, ctx]` (docs/decisions.md, Errors);
 * `basic` is the `loc, msg, type` shape of contract part 7.2.
 */
function formatDetail(issues: ValidationIssue[], style: ValidationStyle): object[] {
  return issues.map((issue) =>
    style === 'basic'
      ? { loc: issue.loc, msg: issue.msg, type: issue.type }
      : {
          type: issue.type,
          loc: issue.loc,
          msg: issue.msg,
          // FastAPI always sends `input`; an issue raised without one still keeps the shape.
          input: issue.input === undefined ? null : issue.input,
          ...(issue.ctx ? { ctx: issue.ctx } : {}),
        },
  );
}

interface JsonFault {
  msg: string;
  /** Index into the body string where Python's json module stops. */
  pos: number;
}

const WHITESPACE = ' \t\n\r';
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

/**
 * Re-reads an invalid body the way CPython's json scanner does (before 3.13, which added
 * "Illegal trailing comma" messages) to get its message and offset: V8's messages often carry
 * no position at all (`Unexpected token '}', "{"a": }" is not valid JSON`).
 */
function pythonJsonFault(s: string): JsonFault | undefined {
  const fault = (msg: string, pos: number): never => {
    throw { msg, pos } satisfies JsonFault;
  };
  const ws = (i: number): number => {
    while (i < s.length && WHITESPACE.includes(s[i])) i++;
    return i;
  };
  const string = (begin: number): number => {
    let i = begin + 1;
    while (i < s.length && s[i] !== '"') {
      if (s[i] < ' ') fault('Invalid control character at', i);
      if (s[i] !== '\\') {
        i++;
        continue;
      }
      const escape = s[i + 1];
      if (escape === 'u') {
        if (i + 6 >= s.length || !/^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) fault('Invalid \\uXXXX escape', i + 1);
        i += 6;
      } else {
        if (escape !== undefined && !'"\\/bfnrt'.includes(escape)) fault('Invalid \\escape', i);
        i += 2;
      }
    }
    if (i >= s.length) fault('Unterminated string starting at', begin);
    return i + 1;
  };
  const object = (start: number): number => {
    let i = ws(start);
    if (s[i] === '}') return i + 1;
    for (;;) {
      if (s[i] !== '"') fault('Expecting property name enclosed in double quotes', i);
      i = ws(string(i));
      if (s[i] !== ':') fault("Expecting ':' delimiter", i);
      i = ws(value(ws(i + 1)));
      if (s[i] === '}') return i + 1;
      if (s[i] !== ',') fault("Expecting ',' delimiter", i);
      i = ws(i + 1);
    }
  };
  const array = (start: number): number => {
    let i = ws(start);
    if (s[i] === ']') return i + 1;
    for (;;) {
      i = ws(value(i));
      if (s[i] === ']') return i + 1;
      if (s[i] !== ',') fault("Expecting ',' delimiter", i);
      i = ws(i + 1);
    }
  };
  const value = (i: number): number => {
    if (s[i] === '"') return string(i);
    if (s[i] === '{') return object(i + 1);
    if (s[i] === '[') return array(i + 1);
    const word = ['null', 'true', 'false'].find((w) => s.startsWith(w, i));
    if (word) return i + word.length;
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(s);
    return number ? i + number[0].length : fault('Expecting value', i);
  };

  try {
    const end = ws(value(ws(0)));
    return end === s.length ? undefined : fault('Extra data', end);
  } catch (error) {
    // Anything but a fault is the recursion limit on absurdly deep nesting: fall back to V8.
    return error instanceof Error ? undefined : (error as JsonFault);
  }
}

/** V8's own offset, used only when the re-read gives up. */
function v8JsonFault(rawBody: string, error: Error): JsonFault {
  const position = /at position (\d+)/.exec(error.message);
  return { msg: error.message, pos: position ? Number(position[1]) : rawBody.length };
}

/**
 * The 422 element for a body JSON.parse refused, as FastAPI builds it from Python's
 * JSONDecodeError: its `msg` as `ctx.error` and its character offset in `loc`.
 */
export function jsonInvalid(rawBody: string, error: Error): ValidationIssue {
  const { msg, pos } = pythonJsonFault(rawBody) ?? v8JsonFault(rawBody, error);
  // Python counts code points, JavaScript UTF-16 units: an emoji before the error is one, not two.
  const offset = Array.from(rawBody.slice(0, pos)).length;
  return { type: 'json_invalid', loc: ['body', offset], msg: 'JSON decode error', input: {}, ctx: { error: msg } };
}

/**
 * Rewrites the head of subgraph issue locations (a GraphQL argument name, e.g.
 * `["input", "timezone"]`) into the REST location it came from; other issues pass unchanged.
 * Assumes the route's variables are named like the arguments they feed.
 */
export function relocate(issues: ValidationIssue[], route: RouteDefinition): ValidationIssue[] {
  const heads = new Map<string, (string | number)[]>();
  const add = (source: string, mapping: Record<string, string> | undefined) => {
    for (const [restName, variable] of Object.entries(mapping ?? {})) heads.set(variable, [source, restName]);
  };
  add('path', route.pathParams);
  add('query', route.queryParams);
  add('header', route.headerParams);
  if (route.body && 'fields' in route.body) add('body', route.body.fields);
  else if (route.body) heads.set(route.body.variable, ['body']);
  if (route.upload) heads.set(route.upload.variable, ['body', route.upload.field]);

  const rename = route.body && 'variable' in route.body ? route.body.rename : undefined;
  return issues.map((issue) => {
    const [head, ...rest] = issue.loc;
    const target = typeof head === 'string' ? heads.get(head) : undefined;
    const located = target ? { ...issue, loc: [...target, ...rest] } : issue;
    return rename ? restIssue(located, rename) : located;
  });
}
