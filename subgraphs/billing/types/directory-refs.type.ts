import { Directive, Field, ID, ObjectType } from 'type-graphql';

// Federation 2 entity stubs of the tenant subgraph's types: billing knows only the key and adds
// its own fields; the gateway fetches every other field from the tenant subgraph.

/** The tenant subgraph's `Patient`, extended with `paymentMethods`. */
@ObjectType('Patient')
@Directive('@key(fields: "id")')
export class PatientRef {
  @Field(() => ID)
  id!: string;
}

/** The tenant subgraph's `Location`, extended with `merchantAccounts`. */
@ObjectType('Location')
@Directive('@key(fields: "id")')
export class LocationRef {
  @Field(() => ID)
  id!: string;
}

/** A reference the gateway resolves in the tenant subgraph, which answers null for unknown and foreign ids. */
export const reference = (id: string): { id: string } => ({ id });
