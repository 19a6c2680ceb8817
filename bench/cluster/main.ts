import { clusterUnavailable, startCluster, strayListeners } from './cluster';

/**
 * `npm run cluster`: starts the test cluster of network namespaces (docs/operations.md, "A cluster
 * on one machine") and keeps it until Ctrl-C, then tears it all down. Exits 0 with one line where
 * namespaces cannot be made.
 */
async function main(): Promise<void> {
  const reason = clusterUnavailable();
  if (reason) {
    console.log(`cluster harness skipped: ${reason}`);
    return;
  }
  // --keep: leave the logs and databases in the work folder after Ctrl-C.
  const cluster = await startCluster({ say: (line) => console.log(`== ${line}`), keepWork: process.argv.includes('--keep') });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('== tearing down');
    await cluster.teardown();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const stray = strayListeners(cluster);
  console.log(`\nThe cluster answers at ${cluster.url} from the client host:`);
  console.log(`  ip netns exec hpp-client curl ${cluster.url}/readyz`);
  console.log(`Hosts: ${cluster.hosts.map((h) => `${h.name} ${h.address}`).join(', ')}`);
  console.log(`Logs and data: ${cluster.workDir}; operator token ${cluster.operatorToken}`);
  console.log(stray.length ? `Listening beyond their host's address: ${stray.join(', ')}` : 'Every process listens on its own host address only.');
  console.log(`Ctrl-C stops everything and removes the namespaces${process.argv.includes('--keep') ? '' : ' and the work folder (--keep leaves it)'}.`);
}

main().catch(async (err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
