import { randomUUID } from 'node:crypto';
import pino from 'pino';
import type { RequestContext } from '../../schema/request-context';

/** A request context as the edge would create it, with a silent logger, for tests of the bridge alone. */
export function testContext(tenantId: string | null = null): RequestContext {
  return { requestId: randomUUID(), tenantId, keyId: null, log: pino({ level: 'silent' }) };
}
