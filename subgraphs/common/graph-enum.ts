/** `createdDate`, `created_date` -> `CREATED_DATE`: how the graph spells an enum value (docs/api.md, Schema style). */
export function screamingSnake(value: string): string {
  return value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/**
 * The object registerEnumType takes for a closed set of stored values: SCREAMING_SNAKE_CASE names on
 * the graph, the values themselves inside (resolvers, the database) and on REST, which the bridge
 * spells from schema/enum-spellings.json.
 */
export function graphEnum<V extends string>(values: readonly V[]): Record<string, V> {
  return Object.fromEntries(values.map((value) => [screamingSnake(value), value]));
}
