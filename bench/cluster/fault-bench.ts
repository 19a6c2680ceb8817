import { join } from 'node:path';
import { repoRoot } from '../../schema/paths';
import { formatMachine, describeMachine } from '../lib/machine';
import { writeSection } from '../lib/results-file';
import { clusterUnavailable, startCluster } from './cluster';
import { FAULT_RUN_ENV, faultCatalogue } from './fault-catalogue';
import { percentile, prepareLoadTenant, runFault, type FaultResult } from './faults';
import { buildFaultReport } from './fault-report';

/**
 * `npm run bench:cluster`: starts the cluster of network namespaces, then runs every fault of the
 * catalogue under steady load `BENCH_CLUSTER_RUNS` times (3) for `BENCH_CLUSTER_SECONDS` (20 s)
 * each, and writes what the client saw and what the database holds into bench/RESULTS.md.
 * `BENCH_CLUSTER_ONLY=<starts of faults' names, comma-separated>` runs those faults alone and writes nothing;
 * `--keep` leaves the processes' logs in the work folder to read afterwards.
 */
async function main(): Promise<void> {
  const reason = clusterUnavailable();
  if (reason) {
    console.log(`cluster faults skipped: ${reason}`);
    return;
  }
  const runs = Number(process.env.BENCH_CLUSTER_RUNS ?? 3);
  const seconds = Number(process.env.BENCH_CLUSTER_SECONDS ?? 20);
  const only = process.env.BENCH_CLUSTER_ONLY?.split(',').map((prefix) => prefix.trim()).filter(Boolean);
  const cluster = await startCluster({ env: FAULT_RUN_ENV, say: (line) => console.log(`== ${line}`), keepWork: process.argv.includes('--keep') });
  try {
    const tenant = prepareLoadTenant(cluster, 'Fault run clinic');
    const results: FaultResult[][] = [];
    for (const fault of faultCatalogue(cluster).filter((f) => !only || only.some((prefix) => f.name.startsWith(prefix)))) {
      const rounds: FaultResult[] = [];
      for (let run = 0; run < runs; run++) {
        console.log(`== ${fault.name}: run ${run + 1} of ${runs}`);
        rounds.push(await runFault(cluster, tenant, fault, { seconds, concurrency: 8, pauseMs: 50 }));
      }
      results.push(rounds);
    }
    if (only) {
      for (const { fault, report, writes } of results.flat()) {
        const readP50Ms = Number(percentile(report.read.latenciesMs, 50).toFixed(1));
        console.log(JSON.stringify({ fault, readP50Ms, read: report.read.failed, dashboard: report.dashboard.failed, payment: report.payment.failed, writes }));
      }
      console.log(`== logs: ${cluster.workDir}`);
      return;
    }
    const markdown = buildFaultReport(results, { machine: formatMachine(describeMachine()), seconds, concurrency: 8, date: new Date().toISOString() });
    writeSection(join(repoRoot(), 'bench', 'RESULTS.md'), 'cluster-faults', markdown, '# Benchmark results');
    console.log(markdown);
  } finally {
    await cluster.teardown();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  });
}
