import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import type { AuditEventRecord } from '../repositories/audit-event.repository';
import { AuditEventService } from '../services/audit-event.service';
import { AuditEventConnection, AuditEventListArgs } from '../types/audit-event.type';

/** The tenant's audit trail, for its admin (scope `audit:read`, docs/access.md); reading it is not itself recorded. */
@Resolver()
export class AuditEventResolver {
  @Query(() => AuditEventConnection, { description: "The tenant's audit trail, newest first by default; every filter given narrows it" })
  auditEvents(@Args() args: AuditEventListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<AuditEventRecord>> {
    return new AuditEventService(ctx.em, requireScope(ctx)).page(args);
  }
}
