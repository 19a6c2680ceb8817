import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { AdminService } from './admin.service';
import type { Config } from '../config';

/** The demo tenant's own person, an owner, who signs in at the console and GraphiQL. */
export const DEMO_PERSON_EMAIL = 'demo@example.com';

/**
 * On a newcomer's first start (empty database, not production, DEMO_TENANT not 0) creates a demo
 * tenant with demo data and prints, once, its TENANT and API-KEY with a curl line to paste, and
 * the e-mail and a fresh random password of its owner for the console (people never use keys).
 */
export async function createDemoTenantOnFirstStart(config: Config, admin: AdminService, url: string, log: Logger): Promise<void> {
  if (!config.demoTenant || config.nodeEnv === 'production') return;
  if ((await admin.countTenants()) > 0) return;
  const { tenant, apiKey } = await admin.createTenant('Demo Clinic', true);
  const invited = await admin.people(tenant.id).invite(DEMO_PERSON_EMAIL, 'Demo Owner', 'owner');
  const password = randomBytes(15).toString('base64url');
  await admin.acceptInvitation(invited.invitationToken, password);
  log.info({ tenantId: tenant.id }, 'demo tenant created');
  process.stdout.write(
    [
      '',
      'A demo tenant was created for you (shown once; DEMO_TENANT=0 turns this off):',
      `  TENANT:  ${tenant.id}`,
      `  API-KEY: ${apiKey}`,
      '',
      `  curl -H 'TENANT: ${tenant.id}' -H 'API-KEY: ${apiKey}' ${url}/tenant/public`,
      '',
      `Its owner signs in at ${url}/console (and GraphiQL at ${url}/graphql):`,
      `  tenant id: ${tenant.id}`,
      `  e-mail:    ${DEMO_PERSON_EMAIL}`,
      `  password:  ${password}`,
      '',
    ].join('\n') + '\n',
  );
}
