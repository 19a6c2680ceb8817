import { sanitizeSql, urlWithoutQuery } from '../../../../platform/tracing/redact';

describe('sanitizeSql: the statement shape a span may hold', () => {
  it('replaces the literals MikroORM writes into its SQL text, and keeps identifiers and placeholders', () => {
    const sql = `insert into "tenant"."patients" ("id", "first_name", "email", "visits", "weight", "notes") values ('5a2e9c41-7b3d-4f60-8e1a-2c4d6f8a0b13', 'O''Brien', E'a\\\\b\\'c@example.com', 12, 71.5e0, $$Ada's "diary"$$) returning "id"`;
    expect(sanitizeSql(sql)).toBe(`insert into "tenant"."patients" ("id", "first_name", "email", "visits", "weight", "notes") values (?, ?, ?, ?, ?, ?) returning "id"`);
  });

  it('leaves names with digits, $n placeholders and tagged dollar quotes in their place', () => {
    expect(sanitizeSql('select "t1"."address_line1", e0.id from tenant.t2 as e0 where e0.id = $1 and e0.n > $12 limit 10')).toBe(
      'select "t1"."address_line1", e0.id from tenant.t2 as e0 where e0.id = $1 and e0.n > $12 limit ?',
    );
    expect(sanitizeSql(`select $tag$it's $1 "x"$tag$, 'a'`)).toBe('select ?, ?');
  });

  it('cuts a long statement', () => {
    const long = sanitizeSql(`insert into t (a) values ${Array.from({ length: 2_000 }, (_, i) => `('v${i}')`).join(', ')}`);
    expect(long.length).toBeLessThanOrEqual(2_003);
    expect(long).not.toContain('v1');
  });
});

describe('urlWithoutQuery', () => {
  it('drops the query string and credentials', () => {
    expect(urlWithoutQuery('https://user:pw@hooks.example.com:8443/in/abc?token=s3cret#x')).toBe('https://hooks.example.com:8443/in/abc');
    expect(urlWithoutQuery('not a url')).toBeUndefined();
  });
});
