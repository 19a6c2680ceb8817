import { CUBES, resolveMember } from './model';
import type { NormalizedQuery } from './query-types';

/** What a client needs to label a member: Cube's annotation entry, plus the unit of money measures. */
export interface MemberAnnotation {
  title: string;
  shortTitle: string;
  type: 'number' | 'string' | 'time';
  description: string;
  meta?: { unit: 'cents' };
  granularity?: { name: string; title: string };
}

/** The answer's `annotation`: Cube's `{measures, dimensions, segments, timeDimensions}`, keyed like the rows. */
export interface QueryAnnotation {
  measures: Record<string, MemberAnnotation>;
  dimensions: Record<string, MemberAnnotation>;
  segments: Record<string, never>;
  timeDimensions: Record<string, MemberAnnotation>;
}

function entry(name: string): MemberAnnotation {
  const member = resolveMember(name);
  if (!member) throw new Error(`unresolved member ${name}`);
  const cubeTitle = CUBES[name.slice(0, name.indexOf('.'))].title;
  const base = { title: `${cubeTitle} ${member.def.title}`, shortTitle: member.def.title, description: member.def.description };
  if (member.kind === 'measure') return { ...base, type: 'number', ...(member.def.cents ? { meta: { unit: 'cents' as const } } : {}) };
  return { ...base, type: member.def.type };
}

/** Describes every key the rows of this query carry. */
export function annotate(query: NormalizedQuery): QueryAnnotation {
  const annotation: QueryAnnotation = { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} };
  for (const name of query.measures) annotation.measures[name] = entry(name);
  for (const name of query.dimensions) annotation.dimensions[name] = entry(name);
  for (const time of query.timeDimensions) {
    if (!time.granularity) continue;
    const granularity = { name: time.granularity, title: time.granularity[0].toUpperCase() + time.granularity.slice(1) };
    const base = entry(time.dimension);
    annotation.timeDimensions[`${time.dimension}.${time.granularity}`] = { ...base, title: `${base.title} (${granularity.title})`, granularity };
    if (!(time.dimension in annotation.timeDimensions) && !query.dimensions.includes(time.dimension)) annotation.timeDimensions[time.dimension] = { ...base, granularity };
  }
  return annotation;
}
