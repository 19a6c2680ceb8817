import { Client } from 'pg';

/**
 * Waits until no statement has been running in the app's database for more than 200 ms, twice in
 * a row 100 ms apart; answers the milliseconds waited, or null at the timeout. A flood's answers
 * are no sign that its work is done: a GraphQL request whose non-null field fails is answered at
 * once while its other fields' statements still run or wait for a connection.
 */
export async function waitForIdleDatabase(databaseUrl: string, timeoutMs: number): Promise<number | null> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const started = Date.now();
  try {
    let clean = 0;
    while (Date.now() - started < timeoutMs) {
      const { rows: [row] } = await db.query<{ busy: number }>(`select count(*)::int as busy from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and query_start < now() - interval '200 milliseconds'`);
      clean = row.busy === 0 ? clean + 1 : 0;
      if (clean >= 2) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
  } finally {
    await db.end();
  }
}
