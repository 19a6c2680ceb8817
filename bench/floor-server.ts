import express from 'express';
import { Pool } from 'pg';
import { TENANT_BY_ID } from '../subgraphs/tenant/repositories/tenant.repository';

/**
 * The floor: the least a server can do to answer `GET /tenant/public` (express 5, pg, the same
 * prepared statement as the app, no auth, no GraphQL). The stack's REST route is judged against
 * its throughput; it lives in bench/ only and is never deployed.
 */
const PUBLIC_URL = (process.env.PUBLIC_URL ?? 'http://localhost:4000').replace(/\/+$/, '');

interface TenantRow {
  id: string;
  name: string;
  timezone: string;
  locale: string;
  currency: string;
  website: string | null;
  phone: string | null;
  primaryColor: string | null;
  logoAssetId: string | null;
  receiptLogoAssetId: string | null;
}

const assetUrl = (id: string | null) => (id ? `${PUBLIC_URL}/assets/${id}` : null);

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const app = express();
  app.disable('x-powered-by');
  app.get('/tenant/public', async (req, res) => {
    const tenantId = req.get('tenant');
    if (!tenantId) return void res.status(400).json({ detail: 'TENANT header required' });
    try {
      const { rows } = await pool.query<TenantRow>({ ...TENANT_BY_ID, values: [tenantId] });
      const row = rows[0];
      if (!row) return void res.status(404).json({ detail: 'Tenant not found' });
      // The same shape and key order as the GraphQL selection the REST route runs.
      res.json({
        id: row.id, name: row.name, timezone: row.timezone, locale: row.locale, currency: row.currency, website: row.website, phone: row.phone,
        primaryColor: row.primaryColor, logoUrl: assetUrl(row.logoAssetId), receiptLogoUrl: assetUrl(row.receiptLogoAssetId),
      });
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      res.status(500).json({ detail: 'Internal Server Error' });
    }
  });

  const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : null })}\n`);

  const shutdown = () => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    // Keep-alive sockets from the load generator would hold close() open (docs/architecture.md, Stack notes).
    server.closeAllConnections();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
