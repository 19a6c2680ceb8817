import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { loggableError } from '../../platform/loggable-error';
import { tenantSubgraph } from '../../subgraphs/tenant';
import { startSubgraph } from '../../platform/subgraph-runtime';
import { Patient } from '../../subgraphs/tenant/entities/patient.entity';

describe('errors written to logs never carry SQL values', () => {
  it('keeps only kind, SQLSTATE and constraint of a MikroORM driver error', async () => {
    const subgraph = await startSubgraph(tenantSubgraph, process.env.DATABASE_URL!, { migrate: false });
    try {
      const em = subgraph.orm.em.fork();
      em.setFilterParams('tenant', { tenantId: randomUUID() });
      // A patient for a tenant that does not exist: a foreign-key violation whose message holds the values.
      em.create(Patient, { tenantId: randomUUID(), firstName: 'Ada', lastName: 'Lovelace-Secret', email: 'ada@example.com' } as never);
      const error = await em.flush().then(() => null, (e) => e);
      expect(String(error.message)).toContain('Lovelace-Secret');
      const logged = JSON.stringify(loggableError(error));
      expect(logged).not.toContain('Lovelace-Secret');
      expect(logged).not.toContain('ada@example.com');
      expect(loggableError(error)).toMatchObject({ type: 'ForeignKeyConstraintViolationException', sqlState: '23503' });
    } finally {
      await subgraph.close();
    }
  });

  it('drops the detail of a raw pg error', async () => {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const error = await client.query(`select 'secret-value'::uuid`).then(() => null, (e) => e);
      expect(JSON.stringify(loggableError(error))).not.toContain('secret-value');
      expect(loggableError(error)).toMatchObject({ sqlState: '22P02' });
    } finally {
      await client.end();
    }
  });
});
