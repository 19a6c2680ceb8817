import { Client } from 'pg';
import { migrateAll } from '../../gateway/migrate';

/**
 * A second database on the test server standing for a read replica: migrated, holding none of
 * the primary's rows, so a read that answers from it tells where it went. The local PostgreSQL
 * has no standby; one that streams is the cluster suite's (test/cluster). Returns its URL.
 */
export async function replicaDatabase(primaryUrl = process.env.DATABASE_URL!): Promise<string> {
  const name = `${new URL(primaryUrl).pathname.slice(1)}_replica`;
  const client = new Client({ connectionString: primaryUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    // The name is the test database's own and a suffix, never input.
    if (exists.rowCount === 0) await client.query(`create database "${name}"`).catch((error) => {
      // Another test file made it at the same moment.
      if ((error as { code?: string }).code !== '42P04') throw error;
    });
  } finally {
    await client.end();
  }
  const url = Object.assign(new URL(primaryUrl), { pathname: `/${name}` }).toString();
  await migrateAll(url);
  return url;
}
