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

/**
 * Issues another key of the tenant through the operator API (`POST /admin/tenants/{id}/api-keys`):
 * a restricted `hpr_` key holding `scopes` (docs/access.md); answers the tenant as seen with it.
 */
export async function issueRestrictedKey(baseUrl: string, operatorToken: string, tenant: BenchTenant, scopes: string[], name: string): Promise<BenchTenant> {
  const res = await fetch(`${baseUrl}/admin/tenants/${tenant.tenantId}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, scopes }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`issuing a restricted key for the benchmark tenant failed: ${res.status} ${text}`);
  const { apiKey } = JSON.parse(text) as { apiKey: string };
  // A full key here would make the benchmark compare a full key with itself.
  if (!apiKey.startsWith('hpr_')) throw new Error(`the key issued with scopes ${scopes.join(', ')} is not restricted (prefix ${apiKey.slice(0, 4)})`);
  return { tenantId: tenant.tenantId, apiKey, headers: { TENANT: tenant.tenantId, 'API-KEY': apiKey } };
}
