import { registerEnumType } from 'type-graphql';

/** Sort direction of every list; lower-case names, as the REST contract writes them. */
export enum SortDirection {
  asc = 'asc',
  desc = 'desc',
}
registerEnumType(SortDirection, { name: 'SortDirection', description: 'Ascending or descending order' });
