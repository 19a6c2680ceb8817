import type { IssueLoc } from '../../common/field-rules';
import { isJsonObject } from '../services/input-rules';
import { endText, parseBound, startText } from './civil-time';
import { QUERY_LIMITS } from './limits';
import { resolveMember, type ResolvedMember } from './model';
import { isGroup, operatorArity, OPERATORS, OPERATORS_BY_TYPE, type FilterNode, type Operator } from './query-types';
import type { QueryIssues } from './query-issues';

/** Whether a filter acts before aggregation (dimensions: WHERE) or after it (measures: HAVING). */
export type FilterScope = 'dimension' | 'measure';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const TIME_REASON = 'value must be a date (YYYY-MM-DD) or an ISO 8601 date-time';

/** The member's type as operators see it. */
const typeOf = (member: ResolvedMember): 'string' | 'number' | 'time' => (member.kind === 'measure' ? 'number' : member.def.type);

/** Where a node acts; undefined for an empty or broken group. */
export function scopeOf(node: FilterNode): FilterScope | 'mixed' | undefined {
  if (!isGroup(node)) return resolveMember(node.member)?.kind;
  const scopes = new Set(('and' in node ? node.and : node.or).map(scopeOf));
  if (scopes.has('mixed') || scopes.size > 1) return 'mixed';
  return [...scopes][0];
}

/** Checks one filter's values against its member and operator; returns them normalised (strings; time values as bound texts). */
function parseValues(issues: QueryIssues, loc: IssueLoc, raw: unknown, member: ResolvedMember, operator: Operator): string[] | undefined {
  const [min, max] = operatorArity(operator, QUERY_LIMITS.maxValues);
  const list = raw === undefined || raw === null ? [] : raw;
  if (!Array.isArray(list)) return issues.type('list_type', [...loc, 'values'], raw);
  if (list.length < min || list.length > max) {
    const need = min === max ? `exactly ${min} value${min === 1 ? '' : 's'}` : `${min} to ${max} values`;
    return issues.reject([...loc, 'values'], `operator ${operator} takes ${need}`, raw);
  }
  const values: string[] = [];
  list.forEach((item, i) => {
    const at = [...loc, 'values', i];
    const text = typeof item === 'number' && Number.isFinite(item) ? String(item) : item;
    if (typeof text !== 'string') return issues.type('string_type', at, item);
    if (text.length > QUERY_LIMITS.maxValueLength) return issues.reject(at, `value must be at most ${QUERY_LIMITS.maxValueLength} characters`, item);
    const type = typeOf(member);
    if (type === 'number' && (!NUMBER.test(text.trim()) || !Number.isFinite(Number(text)))) return issues.reject(at, 'value must be a number', item);
    if (type === 'time') {
      const bound = parseBound(text.trim());
      if (!bound) return issues.reject(at, TIME_REASON, item);
      // The end of an inDateRange counts whole: a date is up to its last millisecond.
      values.push(i === 1 && (operator === 'inDateRange' || operator === 'notInDateRange') ? endText(bound) : startText(bound));
      return;
    }
    values.push(type === 'number' ? text.trim() : text);
  });
  return values.length === list.length ? values : undefined;
}

/** A filter on one member: `{member, operator, values}` (`dimension` is accepted for `member`, as older Cube clients send). */
function parseMemberFilter(issues: QueryIssues, loc: IssueLoc, raw: Record<string, unknown>): FilterNode | undefined {
  const memberKey = 'member' in raw || !('dimension' in raw) ? 'member' : 'dimension';
  for (const [key, value] of Object.entries(raw)) {
    if (![memberKey, 'operator', 'values'].includes(key)) issues.type('extra_forbidden', [...loc, key], value);
  }
  const name = raw[memberKey];
  let member: ResolvedMember | null | undefined;
  if (name === undefined) issues.type('missing', [...loc, 'member'], raw);
  else if (typeof name !== 'string') issues.type('string_type', [...loc, memberKey], name);
  else if (!(member = resolveMember(name))) issues.reject([...loc, memberKey], `unknown member '${name}'`, name);
  const operator = raw.operator;
  let op: Operator | undefined;
  if (operator === undefined) issues.type('missing', [...loc, 'operator'], raw);
  else if (typeof operator !== 'string') issues.type('string_type', [...loc, 'operator'], operator);
  else if (!(OPERATORS as readonly string[]).includes(operator)) issues.reject([...loc, 'operator'], `unknown operator '${operator}'; operators: ${OPERATORS.join(', ')}`, operator);
  else op = operator as Operator;
  if (!member || !op) return undefined;
  const allowed = OPERATORS_BY_TYPE[typeOf(member)];
  if (!allowed.includes(op)) return issues.reject([...loc, 'operator'], `operator ${op} does not apply to ${member.name}; use one of ${allowed.join(', ')}`, op);
  const values = parseValues(issues, loc, raw.values, member, op);
  if (!values) return undefined;
  return values.length ? { member: member.name, operator: op, values } : { member: member.name, operator: op };
}

/** Parses `filters` (a list of filters and `{and: [...]}` / `{or: [...]}` groups) into normalised nodes. */
export function parseFilters(issues: QueryIssues, loc: IssueLoc, raw: unknown): FilterNode[] | undefined {
  let nodes = 0;
  let tooMany = false;
  const node = (value: unknown, at: IssueLoc, depth: number): FilterNode | undefined => {
    if (!isJsonObject(value)) return issues.type('dict_type', at, value);
    if (++nodes > QUERY_LIMITS.maxFilterNodes) {
      if (!tooMany) issues.reject(loc, `a query takes at most ${QUERY_LIMITS.maxFilterNodes} filters and filter groups`, raw);
      tooMany = true;
      return undefined;
    }
    const logical = ['and', 'or'].filter((key) => key in value);
    if (logical.length === 0) return parseMemberFilter(issues, at, value);
    const key = logical[0] as 'and' | 'or';
    for (const [other, extra] of Object.entries(value)) if (other !== key) issues.type('extra_forbidden', [...at, other], extra);
    if (depth >= QUERY_LIMITS.maxFilterDepth) return issues.reject(at, `filter groups nest at most ${QUERY_LIMITS.maxFilterDepth} deep`, value);
    const children = list(value[key], [...at, key], depth + 1);
    if (!children) return undefined;
    if (children.length === 0) return issues.reject([...at, key], `an ${key} group needs at least one filter`, value[key]);
    const group = (key === 'and' ? { and: children } : { or: children }) as FilterNode;
    // WHERE runs before aggregation and HAVING after it: one group cannot be both.
    if (scopeOf(group) === 'mixed') return issues.reject(at, `an ${key} group cannot mix measures and dimensions`, value);
    return group;
  };
  const list = (value: unknown, at: IssueLoc, depth: number): FilterNode[] | undefined => {
    if (!Array.isArray(value)) return issues.type('list_type', at, value);
    const parsed = value.map((item, i) => node(item, [...at, i], depth));
    return parsed.every((p) => p !== undefined) ? (parsed as FilterNode[]) : undefined;
  };
  return list(raw, loc, 0);
}
