import { registerEnumType } from 'type-graphql';

/** Sort direction of every list; lower-case names, as the REST contract writes them. */
export enum SortDirection {
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(SortDirection, { name: 'SortDirection', description: 'Ascending or descending order' });
