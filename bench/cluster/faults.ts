import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../schema/paths';
import { clientRequest } from './client';
import type { Cluster } from './cluster';
import type { LoadConfig, LoadReport } from './load-client';
import { ClusterProcess } from './process';
import { PRIMARY_PORT } from './topology';

/** A tenant with what the load needs: a key, a patient and a card. */
export interface LoadTenant {
  tenant: string;
  keyId: string;
  apiKey: string;
  patientId: string;
  paymentMethodId: string;
}

/** Makes a tenant through the load balancer (operator API, graph and REST, as a client would). */
export function prepareLoadTenant(cluster: Cluster, name: string): LoadTenant {
  const created = clientRequest(cluster, '/admin/tenants', { method: 'POST', headers: { authorization: `Bearer ${cluster.operatorToken}` }, body: { name } });
  if (created.status !== 201) throw new Error(`tenant: ${created.status} ${created.body}`);
  const { tenant, apiKey } = JSON.parse(created.body);
  const keys = clientRequest(cluster, `/admin/tenants/${tenant.id}/api-keys`, { headers: { authorization: `Bearer ${cluster.operatorToken}` } });
  const keyId = JSON.parse(keys.body)[0]?.id ?? JSON.parse(keys.body).items?.[0]?.id;
  const headers = { TENANT: tenant.id, 'API-KEY': apiKey };
  const patient = clientRequest(cluster, '/graphql', {
    method: 'POST',
    headers,
    body: { query: 'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }', variables: { i: { firstName: 'Load', lastName: 'Patient', email: 'load@example.com' } } },
  });
  const patientId = JSON.parse(patient.body).data?.createPatient?.id;
  if (!patientId) throw new Error(`patient: ${patient.status} ${patient.body}`);
  const card = clientRequest(cluster, `/user/patient/payment-methods/create?patient_id=${patientId}`, {
    method: 'POST',
    headers,
    body: { paymentMethodId: `pm_load_${Date.now()}`, methodType: 'card', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3 } },
  });
  if (card.status !== 200) throw new Error(`card: ${card.status} ${card.body}`);
  return { tenant: tenant.id, keyId, apiKey, patientId, paymentMethodId: JSON.parse(card.body).id };
}

/** What the database holds of the acknowledged writes, read on the primary after the run. */
export interface WriteCheck {
  dashboardsAcknowledged: number;
  dashboardsFound: number;
  paymentsAcknowledged: number;
  paymentsFound: number;
  /** Members charged more than once: a key charged twice. */
  doubled: number;
  /** Dashboards of this run written more than once (a repeated mutation). */
  dashboardsDoubled: number;
}

/** Counts the acknowledged writes found on the primary, and members with more than one successful charge. */
export function checkWrites(cluster: Cluster, report: LoadReport, tenant: string, label: string): WriteCheck {
  const db = cluster.host('db');
  const sql = (query: string) => cluster.exec(db, 'psql', ['-h', db.address, '-p', String(PRIMARY_PORT), '-U', 'postgres', '-d', 'platform', '-tAc', query]).trim();
  const list = (ids: string[]) => (ids.length ? ids.map((id) => `'${id.replace(/[^0-9a-f-]/gi, '')}'`).join(',') : 'null');
  const dashboardsFound = Number(sql(`select count(*) from analytics.dashboards where id in (${list(report.dashboards)})`));
  const paymentsFound = Number(sql(`select count(distinct member_id) from billing.member_payments where status = 'SUCCEEDED' and member_id in (${list(report.payments.map((p) => p.memberId))})`));
  const doubled = Number(sql(`select count(*) from (select member_id from billing.member_payments where tenant_id = '${tenant}' and status = 'SUCCEEDED' group by member_id having count(*) > 1) d`));
  const dashboardsDoubled = Number(
    sql(`select count(*) from (select name from analytics.dashboards where tenant_id = '${tenant}' and name like '${label.replace(/[^\w-]/g, '')} %' group by name having count(*) > 1) d`),
  );
  return { dashboardsAcknowledged: report.dashboards.length, dashboardsFound, dashboardsDoubled, paymentsAcknowledged: report.payments.length, paymentsFound, doubled };
}

/** A fault to inject while the load runs: `inject` at `atSeconds`, `heal` (if any) `healAfterSeconds` later, or when the load ends. */
export interface Fault {
  name: string;
  atSeconds: number;
  inject(cluster: Cluster): Promise<void> | void;
  healAfterSeconds?: number;
  heal?(cluster: Cluster): Promise<void> | void;
}

/** A fault run's outcome: what the client saw and what the database holds. */
export interface FaultResult {
  fault: string;
  report: LoadReport;
  writes: WriteCheck;
}

/**
 * Runs the load generator on the client host for `seconds`, injecting the fault part-way (and
 * healing it), then checks the acknowledged writes against the database.
 */
export async function runFault(cluster: Cluster, tenant: LoadTenant, fault: Fault, load: { seconds: number; concurrency: number; pauseMs: number }): Promise<FaultResult> {
  // Base 36: a long run of digits in a name would be refused as a card number (free text never holds one).
  const stamp = `${fault.name.replace(/\W+/g, '-').slice(0, 24)}-${Date.now().toString(36)}`;
  const configFile = join(cluster.workDir, `${stamp}.config.json`);
  const reportFile = join(cluster.workDir, `${stamp}.report.json`);
  const config: LoadConfig = { url: cluster.url, tenant: tenant.tenant, apiKey: tenant.apiKey, patientId: tenant.patientId, paymentMethodId: tenant.paymentMethodId, label: stamp, ...load };
  writeFileSync(configFile, JSON.stringify(config));
  const client = new ClusterProcess(
    { name: `load-${stamp}`, host: cluster.host('client'), command: process.execPath, args: [join(repoRoot(), 'dist', 'bench', 'cluster', 'load-client.js'), configFile, reportFile] },
    join(cluster.workDir, 'logs'),
  );
  await client.start();
  await sleep(fault.atSeconds * 1_000);
  await fault.inject(cluster);
  if (fault.heal && fault.healAfterSeconds !== undefined) {
    await sleep(fault.healAfterSeconds * 1_000);
    await fault.heal(cluster);
  }
  await client.whenExited();
  // Without a time of its own, a fault lasts as long as the load.
  if (fault.heal && fault.healAfterSeconds === undefined) await fault.heal(cluster);
  if (client.exitCode !== 0) throw new Error(`load client failed (exit ${client.exitCode}); see ${client.logFile}`);
  const report: LoadReport = JSON.parse(readFileSync(reportFile, 'utf8'));
  return { fault: fault.name, report, writes: checkWrites(cluster, report, tenant.tenant, stamp) };
}

/** The percentile of a list of latencies (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
