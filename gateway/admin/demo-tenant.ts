import type { Logger } from 'pino';
import type { AdminService } from './admin.service';
import type { Config } from '../config';

/**
 * On a newcomer's first start (empty database, not production, DEMO_TENANT not 0) creates a demo
 * tenant with demo data and prints its TENANT and API-KEY once, with a curl line to paste.
 */
export async function createDemoTenantOnFirstStart(config: Config, admin: AdminService, url: string, log: Logger): Promise<void> {
  if (!config.demoTenant || config.nodeEnv === 'production') return;
  if ((await admin.countTenants()) > 0) return;
  const { tenant, apiKey } = await admin.createTenant('Demo Clinic', true);
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
    ].join('\n') + '\n',
  );
}
