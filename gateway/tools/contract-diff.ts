import { CriticalityLevel, diff as diffGraphs } from '@graphql-inspector/core';
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import openapiDiff from 'openapi-diff';
import { toOpenApi30 } from '../../rest-bridge/openapi-30';

/** How much a change can hurt a client: graphql-inspector's levels; openapi-diff's `unclassified` counts as DANGEROUS. */
export type Criticality = 'BREAKING' | 'DANGEROUS' | 'NON_BREAKING';

/** One change of the published contract, as the check reports and judges it. */
export interface ContractChange {
  surface: 'graph' | 'rest';
  criticality: Criticality;
  /** What a changelog entry names: a schema coordinate (`Query.dashboard`, `Query.dashboard.id`) or a route (`GET /tenant/public`, `/tenant/public`). */
  coordinate: string;
  message: string;
  /** The sunset day (`YYYY-MM-DD`) of what the change touches, when the last release deprecated it with one. */
  sunset?: string;
}

/** The published contracts of one release: the API schema's SDL and the OpenAPI 3.1 document. */
export interface Contracts {
  sdl: string;
  openapi: Record<string, unknown>;
}

// docs/api.md, "Versions and deprecation": a deprecation reason names its sunset day this way.
const SUNSET_IN_REASON = /\bsunset:?\s+(\d{4}-\d{2}-\d{2})\b/i;

/** The sunset day a deprecation reason names (`... Sunset 2027-06-01.`), if any. */
export function sunsetOfReason(reason: string | null | undefined): string | undefined {
  return reason ? SUNSET_IN_REASON.exec(reason)?.[1] : undefined;
}

/** The deprecation reason of the field, argument, input field or enum value at a coordinate of `schema`. */
function deprecationAt(schema: GraphQLSchema, coordinate: string): string | null | undefined {
  const [typeName, member, argument] = coordinate.split('.');
  const type = schema.getType(typeName);
  if (!member || !type) return undefined;
  if (isEnumType(type)) return type.getValue(member)?.deprecationReason;
  if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
    const field = type.getFields()[member];
    if (!field) return undefined;
    if (!argument) return field.deprecationReason;
    return 'args' in field ? field.args.find((a) => a.name === argument)?.deprecationReason : undefined;
  }
  return undefined;
}

/** The graph's changes from `before` to `after` (SDL of API schemas), by graphql-inspector. */
export async function graphChanges(before: string, after: string): Promise<ContractChange[]> {
  const old = buildSchema(before);
  const changes = await diffGraphs(old, buildSchema(after));
  return changes.map((change) => {
    const coordinate = change.path ?? change.type;
    const criticality = change.criticality.level === CriticalityLevel.Breaking ? 'BREAKING' : change.criticality.level === CriticalityLevel.Dangerous ? 'DANGEROUS' : 'NON_BREAKING';
    const sunset = sunsetOfReason(deprecationAt(old, coordinate));
    return { surface: 'graph', criticality, coordinate, message: change.message, ...(sunset ? { sunset } : {}) };
  });
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `paths./tenant/update.put.requestBody...` -> `PUT /tenant/update`; `paths./tenant/public` -> `/tenant/public`; else the location. */
export function routeOfLocation(location: string): string {
  const match = new RegExp(`^paths\\.(/.*?)(?:\\.(${METHODS.join('|')})(?:\\.|$)|$)`).exec(location);
  if (!match) return location;
  return match[2] ? `${match[2].toUpperCase()} ${match[1]}` : match[1];
}

/** The sunset day of a route (or of the latest-sunset operation of a path) the `before` document deprecated. */
function routeSunset(document: Record<string, unknown>, route: string): string | undefined {
  const [method, path] = route.includes(' ') ? route.split(' ') : [undefined, route];
  const item = (document.paths as Record<string, Record<string, { 'x-sunset'?: string }>> | undefined)?.[path];
  if (!item) return undefined;
  const operations = method ? [item[method.toLowerCase()]] : Object.values(item);
  const sunsets = operations.map((operation) => operation?.['x-sunset']).filter((day): day is string => typeof day === 'string');
  return sunsets.sort().at(-1);
}

type OpenApiDiffResult = { type: string; code: string; action: string; sourceSpecEntityDetails: { location: string }[]; destinationSpecEntityDetails: { location: string }[] };

/**
 * The REST surface's changes from `before` to `after` (OpenAPI 3.1 documents), by openapi-diff on
 * their 3.0 renderings (rest-bridge/openapi-30.ts): openapi-diff reads only Swagger 2 and OpenAPI 3.0.
 */
export async function restChanges(before: Record<string, unknown>, after: Record<string, unknown>): Promise<ContractChange[]> {
  const spec = (document: Record<string, unknown>, location: string) => ({ content: JSON.stringify(toOpenApi30(document)), location, format: 'openapi3' as const });
  const outcome = await openapiDiff.diffSpecs({ sourceSpec: spec(before, 'last release'), destinationSpec: spec(after, 'current code') });
  const results: OpenApiDiffResult[] = [...('breakingDifferences' in outcome ? outcome.breakingDifferences : []), ...outcome.unclassifiedDifferences, ...outcome.nonBreakingDifferences];
  return results.flatMap((result) => {
    const location = (result.sourceSpecEntityDetails[0] ?? result.destinationSpecEntityDetails[0])?.location ?? '';
    const criticality = result.type === 'breaking' ? 'BREAKING' : result.type === 'non-breaking' ? 'NON_BREAKING' : 'DANGEROUS';
    // A path added or removed whole is one change per method it serves, so a changelog names routes alike.
    const whole = result.code === 'path.add' ? after : result.code === 'path.remove' ? before : undefined;
    const route = routeOfLocation(location);
    const coordinates = whole ? methodsOf(whole, route).map((method) => `${method} ${route}`) : [route];
    return (coordinates.length ? coordinates : [route]).map((coordinate): ContractChange => {
      const sunset = routeSunset(before, coordinate);
      return { surface: 'rest', criticality, coordinate, message: `${result.code} at ${location}`, ...(sunset ? { sunset } : {}) };
    });
  });
}

/** The HTTP methods a document's path item serves, upper-case. */
function methodsOf(document: Record<string, unknown>, path: string): string[] {
  const item = (document.paths as Record<string, Record<string, unknown>> | undefined)?.[path] ?? {};
  return Object.keys(item).filter((key) => METHODS.includes(key)).map((method) => method.toUpperCase());
}

/** Both surfaces' changes from one release's contracts to another's. */
export async function contractChanges(before: Contracts, after: Contracts): Promise<ContractChange[]> {
  return [...(await graphChanges(before.sdl, after.sdl)), ...(await restChanges(before.openapi, after.openapi))];
}

/** Whether a changelog entry naming `recorded` covers a change at `coordinate`: the same, or something inside it. */
export function covers(recorded: string, coordinate: string): boolean {
  if (recorded === coordinate || coordinate.startsWith(`${recorded}.`)) return true;
  // A path (`/tenant/public`) covers each of its methods (`GET /tenant/public`).
  return recorded.startsWith('/') && coordinate.endsWith(` ${recorded}`);
}

/** A breaking change the check refuses, and why. */
export interface Refusal {
  change: ContractChange;
  reason: string;
}

/**
 * The check's verdict on the changes since the last release: a breaking change must be recorded
 * in the changelog's Unreleased section, and what the last release deprecated with a sunset day
 * may not break before that day, recorded or not (docs/api.md, "Versions and deprecation").
 */
export function refusals(changes: ContractChange[], recorded: string[], today: Date): Refusal[] {
  const day = today.toISOString().slice(0, 10);
  const result: Refusal[] = [];
  for (const change of changes.filter((c) => c.criticality === 'BREAKING')) {
    // The Sunset header names the moment it may stop answering: midnight UTC starting that day.
    if (change.sunset && change.sunset > day) result.push({ change, reason: `deprecated with sunset ${change.sunset}: it may not break before that day` });
    else if (!recorded.some((entry) => covers(entry, change.coordinate))) result.push({ change, reason: 'not recorded under "### Breaking" in CHANGELOG.md\'s Unreleased section' });
  }
  return result;
}
