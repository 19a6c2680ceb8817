/** A tenant made for the benchmark and the headers that authenticate as it. */
export interface BenchTenant {
  tenantId: string;
  apiKey: string;
  headers: Record<string, string>;
}

/** Creates a tenant through the operator API (`POST /admin/tenants`). */
export async function createTenant(baseUrl: string, operatorToken: string, name: string): Promise<BenchTenant> {
  const res = await fetch(`${baseUrl}/admin/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`creating the benchmark tenant failed: ${res.status} ${text}`);
  const body = JSON.parse(text) as { tenant: { id: string }; apiKey: string };
  return { tenantId: body.tenant.id, apiKey: body.apiKey, headers: { TENANT: body.tenant.id, 'API-KEY': body.apiKey } };
}
