import { Directive, Field, ObjectType } from 'type-graphql';

/** One subgraph's health, answered by its `<name>Health` query; shared by every subgraph. */
@ObjectType({ description: 'Health of one subgraph and its database' })
@Directive('@shareable')
export class ServiceHealth {
  @Field({ description: 'Subgraph name' })
  service!: string;

  @Field({ description: 'True when the subgraph reached its database' })
  database!: boolean;
}

/** Asks the subgraph's database for a trivial answer; false instead of an exception. */
export async function checkDatabase(em: { getConnection(): { execute(sql: string): Promise<unknown> } }): Promise<boolean> {
  try {
    await em.getConnection().execute('select 1');
    return true;
  } catch {
    return false;
  }
}
