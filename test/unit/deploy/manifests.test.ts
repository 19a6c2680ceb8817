import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployProblems } from '../../../gateway/tools/deploy-check';
import { manifestsDir } from '../../../gateway/tools/deploy-manifests';
import { repoRoot } from '../../../schema/paths';

/** A copy of deploy/kubernetes with one file edited, checked against the repository's Compose file. */
async function problemsAfter(file: string, edit: (text: string) => string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'manifests-'));
  try {
    cpSync(manifestsDir(), dir, { recursive: true });
    writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
    return await deployProblems(repoRoot(), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('deploy/kubernetes', () => {
  it('is valid against the Kubernetes API schemas, wired, and the same topology as docker-compose.yml', async () => {
    expect(await deployProblems()).toEqual([]);
  });

  it('refuses a value of the wrong type (schema validation)', async () => {
    const problems = await problemsAfter('gateway.yaml', (text) => text.replace('replicas: 2', 'replicas: two'));
    expect(problems).toEqual([expect.stringMatching(/gateway\.yaml: Deployment\/gateway: .*replicas must be integer/)]);
  });

  it('refuses a Service whose selector finds no pods', async () => {
    const problems = await problemsAfter('subgraph-notes.yaml', (text) => text.replace('  selector:\n    app.kubernetes.io/name: notes', '  selector:\n    app.kubernetes.io/name: note'));
    expect(problems).toContain('subgraph-notes.yaml: Service/notes selects no Deployment\'s pods');
  });

  it('refuses a policy that lets another pod reach the subgraphs', async () => {
    const problems = await problemsAfter('network-policy.yaml', (text) => text.replace('app.kubernetes.io/name: gateway\n      ports', 'app.kubernetes.io/name: worker\n      ports'));
    expect(problems).toContain('network-policy.yaml: NetworkPolicy/subgraphs-from-gateway-only lets more than the gateway reach subgraphs');
  });

  it('lets Prometheus reach the subgraphs\' metrics port, and nothing but the gateway their GraphQL port', async () => {
    const problems = await problemsAfter('network-policy.yaml', (text) => text.replace('        - { protocol: TCP, port: metrics }', '        - { protocol: TCP, port: metrics }\n        - { protocol: TCP, port: http }'));
    expect(problems).toContain('network-policy.yaml: NetworkPolicy/subgraphs-from-gateway-only lets more than the gateway reach subgraphs');
  });

  it('refuses an analytics Deployment without the replica URL Compose gives it', async () => {
    const problems = await problemsAfter('subgraph-analytics.yaml', (text) => text.replace(/ {12}- name: DATABASE_REPLICA_URL\n.*\n.*\n/, ''));
    expect(problems).toEqual(['"analytics" is given DATABASE_REPLICA_URL in Compose but not in Kubernetes']);
  });

  it('refuses a process Compose runs and the manifests do not', async () => {
    const problems = await problemsAfter('kustomization.yaml', (text) => text.replace('  - worker.yaml\n', ''));
    expect(problems).toEqual(expect.arrayContaining(['worker.yaml: not listed in kustomization.yaml, so never applied', 'docker-compose.yml runs "worker"; no Deployment or Job of that name']));
  });

  it('refuses a subgraph service without probes', async () => {
    const problems = await problemsAfter('subgraph-billing.yaml', (text) => text.replace(/ {10}livenessProbe:\n.*\n.*\n.*\n/, ''));
    expect(problems).toContain('subgraph-billing.yaml: Deployment/billing: container billing serves HTTP without readiness and liveness probes');
  });
});
