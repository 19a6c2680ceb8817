import { Ctx, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../platform/context';
import { checkDatabase, ServiceHealth } from './health.type';
import type { SubgraphName } from '../../platform/subgraph-definition';

/** Makes the `<name>Health` query every subgraph answers (root fields must be unique across the graph). */
export function createHealthResolver(name: SubgraphName): Function {
  @Resolver()
  class HealthResolver {
    @Query(() => ServiceHealth, { name: `${name}Health`, description: `Health of the ${name} subgraph` })
    async health(@Ctx() ctx: SubgraphContext): Promise<ServiceHealth> {
      return { service: name, database: await checkDatabase(ctx.em) };
    }
  }
  return HealthResolver;
}
