import type { AnalyticsQueryModelType } from '../types/analytics-query-model.type';
import { QUERY_LIMITS } from './limits';
import { CUBES, GRANULARITIES } from './model';
import { OPERATORS_BY_TYPE } from './query-types';

/**
 * The declared model as clients see it (Cube's `/v1/meta` shape, plus what the validator also
 * enforces): built from the same tables the validator reads, so a picker built from it offers
 * exactly what a saved widget may hold.
 */
export function describeModel(): AnalyticsQueryModelType {
  const cubes = Object.entries(CUBES).map(([cube, def]) => ({
    name: cube,
    title: def.title,
    measures: Object.entries(def.measures).map(([name, m]) => ({
      name: `${cube}.${name}`,
      title: `${def.title} ${m.title}`,
      shortTitle: m.title,
      type: 'number',
      description: m.description,
      unit: m.cents ? 'cents' : null,
    })),
    dimensions: Object.entries(def.dimensions).map(([name, d]) => ({
      name: `${cube}.${name}`,
      title: `${def.title} ${d.title}`,
      shortTitle: d.title,
      type: d.type,
      description: d.description,
      unit: null,
    })),
  }));
  return {
    cubes,
    granularities: [...GRANULARITIES],
    operators: Object.entries(OPERATORS_BY_TYPE).map(([type, operators]) => ({ type, operators: [...operators] })),
    defaultLimit: QUERY_LIMITS.defaultLimit,
    maxLimit: QUERY_LIMITS.maxLimit,
  };
}
