// GraphQL documents and look-ups several views share.
import { graphql } from './api.js';

/** Runs a widget query through the query engine; resolves to `{data, annotation, query}`. */
export const RUN_QUERY = 'query Run($query: JSON!) { executeAnalyticsQuery(query: $query) { query data annotation } }';

/** The query model the API validates widget queries against (cubes, members, granularities, operators). */
const MODEL = `{ analyticsQueryModel {
  granularities defaultLimit maxLimit
  operators { type operators }
  cubes { name title measures { name title shortTitle type description unit } dimensions { name title shortTitle type description unit } }
} }`;

let model = null;
/** The query model, asked once per sign-in and kept while the page lives (it is the same for every tenant). */
export async function queryModel() {
  model ??= graphql(MODEL).then((data) => data.analyticsQueryModel);
  return model.catch((error) => {
    model = null;
    throw error;
  });
}

/** The tenant's locations (at most 100: a practice has a handful), for the location filters. */
export async function locations() {
  const data = await graphql('{ locations(first: 100) { nodes { id name } } }');
  return data.locations.nodes.slice().sort((a, b) => a.name.localeCompare(b.name));
}

/** The widget query run with a dashboard's location filter added: only that location's lines. */
export function withLocation(query, locationId, modelNow) {
  if (!locationId) return query;
  const first = [...(query.measures ?? []), ...(query.dimensions ?? []), ...(query.timeDimensions ?? []).map((t) => t.dimension)][0];
  const cube = modelNow.cubes.find((c) => first?.startsWith(`${c.name}.`)) ?? modelNow.cubes[0];
  const member = cube.dimensions.find((d) => d.name === `${cube.name}.locationId`);
  if (!member) return query;
  return { ...query, filters: [...(query.filters ?? []), { member: member.name, operator: 'equals', values: [locationId] }] };
}
