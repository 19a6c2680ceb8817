import { ArgsType, Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { ClassType } from 'type-graphql';

/** Default and maximum page sizes of every list (docs/decisions.md, Conventions). */
export const PAGE_DEFAULTS = { page: 1, perPage: 20, maxPerPage: 100 } as const;

/** Sort direction of every list; lower-case names, as the REST contract writes them. */
export enum SortDirection {
  asc = 'asc',
  desc = 'desc',
}
registerEnumType(SortDirection, { name: 'SortDirection', description: 'Ascending or descending order' });

/** `page` and `perPage`, optional, with documented defaults. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: PAGE_DEFAULTS.page, description: 'Page number, from 1' })
  page: number = PAGE_DEFAULTS.page;

  @Field(() => Int, { defaultValue: PAGE_DEFAULTS.perPage, description: `Items per page, 1 to ${PAGE_DEFAULTS.maxPerPage}` })
  perPage: number = PAGE_DEFAULTS.perPage;
}

/** The page envelope `{items, total, page, perPage, pages}` for one item type. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  pages: number;
}

/** Makes the GraphQL page type for an item type (type-graphql has no generics). */
export function PageType<T extends object>(itemType: ClassType<T>) {
  // Not emitted on its own: only the concrete subclass is reachable from a resolver.
  @ObjectType()
  abstract class PageClass implements Page<T> {
    @Field(() => [itemType])
    items!: T[];

    @Field(() => Int, { description: 'Items across all pages' })
    total!: number;

    @Field(() => Int)
    page!: number;

    @Field(() => Int)
    perPage!: number;

    @Field(() => Int, { description: 'Number of pages' })
    pages!: number;
  }
  return PageClass;
}

/** Builds the envelope from one page of rows and the total. */
export function toPage<T>(items: T[], total: number, args: { page: number; perPage: number }): Page<T> {
  return { items, total, page: args.page, perPage: args.perPage, pages: Math.ceil(total / args.perPage) };
}
