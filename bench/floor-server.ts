import cluster from 'node:cluster';
import express from 'express';
import { Pool } from 'pg';
import { PUBLIC_TENANT_BY_ID } from '../subgraphs/tenant/repositories/tenant.repository';

/**
 * The floor: the least a server can do to answer `GET /tenant/public` (express 5, pg, the same
 * prepared statement as the app, no auth, no GraphQL). The stack's REST route is judged against
 * its throughput; it lives in bench/ only and is never deployed. `FLOOR_WORKERS` HTTP worker
 * processes share the port through node:cluster as the app's WEB_CONCURRENCY workers do, so both
 * are measured in the same shape (bench/RESULTS.md: on a 2-core VM a second worker cost the app
 * ~35% more CPU per request and the floor 10-30%, so a one-process floor flattered it).
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
      const { rows } = await pool.query<TenantRow>({ ...PUBLIC_TENANT_BY_ID, values: [tenantId] });
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
  // A cluster worker's port is announced by the primary, once every worker listens.
  if (cluster.isPrimary) process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : null })}\n`);

  const shutdown = () => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    // Keep-alive sockets from the load generator would hold close() open (docs/architecture.md, Stack notes).
    server.closeAllConnections();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** The primary of FLOOR_WORKERS > 1: forks the workers and prints the port once all of them listen. */
async function primary(workers: number): Promise<void> {
  const ports = await Promise.all(
    Array.from({ length: workers }, () => {
      const worker = cluster.fork();
      return new Promise<number>((resolve, reject) => {
        worker.once('listening', (address) => resolve(address.port)).once('exit', (code) => reject(new Error(`floor worker exited with ${code}`)));
      });
    }),
  );
  // Workers asked for port 0 share the one the primary picked.
  if (new Set(ports).size !== 1) throw new Error(`floor workers listen on different ports: ${ports.join(', ')}`);
  process.stdout.write(`${JSON.stringify({ port: ports[0] })}\n`);
  const shutdown = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

const workers = Number(process.env.FLOOR_WORKERS ?? 1);
(cluster.isPrimary && workers > 1 ? primary(workers) : main()).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
