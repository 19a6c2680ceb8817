import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Manifest } from './deploy-manifests';

/** A process of the platform as one deployment file describes it: its name, its command line and the variables it is given. */
interface Process {
  name: string;
  command: string[];
  env: string[];
}

const matches = (selector: Record<string, string> = {}, labels: Record<string, string> = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

const podLabels = (workload: Manifest): Record<string, string> => workload.spec?.template?.metadata?.labels ?? {};
const containersOf = (workload: Manifest): any[] => workload.spec?.template?.spec?.containers ?? [];

/** The processes docker-compose.yml runs from the platform's image (those with a `node` command). */
export function composeProcesses(root: string): { processes: Process[]; subgraphUrls: string[] } {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
  const processes = Object.entries<any>(compose.services)
    .filter(([, service]) => Array.isArray(service.command) && service.command[0] === 'node')
    .map(([name, service]) => ({ name, command: service.command as string[], env: Object.keys(service.environment ?? {}) }));
  const subgraphUrls = Object.keys(compose.services.gateway?.environment ?? {}).filter((key) => /^SUBGRAPH_\w+_URL$/.test(key));
  return { processes, subgraphUrls };
}

/** The variables a container is given: its own, and every key of the ConfigMaps and Secrets it takes whole. */
function containerEnv(manifests: Manifest[], container: any): string[] {
  const keysOf = (kind: string, name: string) => manifests.filter((m) => m.kind === kind && m.metadata.name === name).flatMap((m) => Object.keys({ ...m.data, ...m.stringData }));
  const whole = (container?.envFrom ?? []).flatMap((source: any) =>
    source.configMapRef ? keysOf('ConfigMap', source.configMapRef.name) : source.secretRef ? keysOf('Secret', source.secretRef.name) : [],
  );
  return [...(container?.env ?? []).map((variable: any) => variable.name), ...whole];
}

/** Deployments and Jobs: the platform's processes as the manifests run them. */
function manifestProcesses(manifests: Manifest[]): Process[] {
  return manifests
    .filter((m) => m.kind === 'Deployment' || m.kind === 'Job')
    .map((m) => ({ name: m.metadata.name, command: containersOf(m)[0]?.command ?? [], env: containerEnv(manifests, containersOf(m)[0]) }));
}

/** The Kubernetes manifests and the Compose file describe the same processes, started the same way. */
export function sameTopology(manifests: Manifest[], compose: ReturnType<typeof composeProcesses>): string[] {
  const problems: string[] = [];
  const ours = new Map(manifestProcesses(manifests).map((p) => [p.name, p]));
  for (const { name, command, env } of compose.processes) {
    const kube = ours.get(name);
    if (!kube) problems.push(`docker-compose.yml runs "${name}"; no Deployment or Job of that name`);
    // Compose may add node flags; the script each runs must be the same.
    else if (kube.command.at(-1) !== command.at(-1)) problems.push(`"${name}" runs ${kube.command.at(-1)} in Kubernetes but ${command.at(-1)} in Compose`);
    // What Compose configures (a replica URL, a metrics port) Kubernetes configures too, if only as an optional Secret key.
    const missing = kube ? env.filter((key) => !kube.env.includes(key)) : [];
    if (missing.length) problems.push(`"${name}" is given ${missing.join(', ')} in Compose but not in Kubernetes`);
    ours.delete(name);
  }
  for (const name of ours.keys()) problems.push(`Deployment or Job "${name}" has no service in docker-compose.yml`);
  const config = manifests.find((m) => m.kind === 'ConfigMap');
  const urls = Object.keys(config?.data ?? {}).filter((key) => /^SUBGRAPH_\w+_URL$/.test(key));
  if (urls.sort().join() !== [...compose.subgraphUrls].sort().join()) problems.push(`subgraph URLs differ: ConfigMap ${urls.join(', ')}; Compose ${compose.subgraphUrls.join(', ')}`);
  return problems;
}

/** References between objects resolve: selectors find pods, ports and targets exist, probes and requests are set. */
export function wiringProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const deployments = manifests.filter((m) => m.kind === 'Deployment');
  const named = (kind: string, name: string) => manifests.some((m) => m.kind === kind && m.metadata.name === name);
  const selected = (selector: Record<string, string> | undefined) => deployments.filter((d) => matches(selector, podLabels(d)));
  for (const workload of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
    const where = `${workload.file}: ${workload.kind}/${workload.metadata.name}`;
    if (workload.kind === 'Deployment' && !matches(workload.spec?.selector?.matchLabels, podLabels(workload))) problems.push(`${where}: selector does not match its pod labels`);
    for (const container of containersOf(workload)) {
      if (!container.resources?.requests?.cpu || !container.resources?.requests?.memory) problems.push(`${where}: container ${container.name} has no CPU and memory requests`);
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef && !named('ConfigMap', source.configMapRef.name)) problems.push(`${where}: ConfigMap ${source.configMapRef.name} does not exist`);
        if (source.secretRef && !named('Secret', source.secretRef.name)) problems.push(`${where}: Secret ${source.secretRef.name} does not exist`);
      }
      // Whatever answers HTTP is probed: the load balancer and the kubelet need both answers.
      if (container.ports?.length && (!container.readinessProbe || !container.livenessProbe)) problems.push(`${where}: container ${container.name} serves HTTP without readiness and liveness probes`);
    }
  }
  for (const service of manifests.filter((m) => m.kind === 'Service')) {
    const pods = selected(service.spec?.selector);
    if (!pods.length) problems.push(`${service.file}: Service/${service.metadata.name} selects no Deployment's pods`);
    const portNames = new Set(pods.flatMap((d) => containersOf(d).flatMap((c) => (c.ports ?? []).map((p: any) => p.name))));
    for (const port of service.spec?.ports ?? []) if (typeof port.targetPort === 'string' && !portNames.has(port.targetPort)) problems.push(`${service.file}: Service/${service.metadata.name} targets port "${port.targetPort}", which its pods do not name`);
  }
  for (const budget of manifests.filter((m) => m.kind === 'PodDisruptionBudget')) {
    if (!selected(budget.spec?.selector?.matchLabels).length) problems.push(`${budget.file}: PodDisruptionBudget/${budget.metadata.name} selects no pods`);
  }
  for (const scaler of manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler')) {
    if (!named('Deployment', scaler.spec?.scaleTargetRef?.name)) problems.push(`${scaler.file}: HorizontalPodAutoscaler/${scaler.metadata.name} scales a Deployment that does not exist`);
  }
  for (const monitor of manifests.filter((m) => m.kind === 'ServiceMonitor')) {
    const services = manifests.filter((m) => m.kind === 'Service' && matches(monitor.spec?.selector?.matchLabels, m.metadata.labels));
    const ports = new Set(services.flatMap((s) => (s.spec?.ports ?? []).map((p: any) => p.name)));
    for (const endpoint of monitor.spec?.endpoints ?? []) if (!ports.has(endpoint.port)) problems.push(`${monitor.file}: ServiceMonitor/${monitor.metadata.name} scrapes port "${endpoint.port}" of no selected Service`);
  }
  return [...problems, ...subgraphIsolation(manifests, deployments)];
}

/** Exactly the subgraph services' pods are behind the policy that lets only the gateway in. */
function subgraphIsolation(manifests: Manifest[], deployments: Manifest[]): string[] {
  const subgraphs = deployments.filter((d) => containersOf(d).some((c) => (c.command ?? []).some((part: string) => part.startsWith('dist/subgraphs/'))));
  const gateway = deployments.find((d) => d.metadata.name === 'gateway');
  const policies = manifests.filter((m) => m.kind === 'NetworkPolicy');
  const guarding = policies.filter((p) => subgraphs.some((d) => matches(p.spec?.podSelector?.matchLabels, podLabels(d))));
  const problems: string[] = [];
  for (const subgraph of subgraphs) {
    const covered = guarding.some((p) => matches(p.spec.podSelector.matchLabels, podLabels(subgraph)));
    if (!covered) problems.push(`Deployment/${subgraph.metadata.name}: no NetworkPolicy limits who reaches it`);
  }
  for (const policy of guarding) {
    // Prometheus may reach the metrics port; a rule that opens any other port is for the gateway alone.
    const metricsOnly = (rule: any) => rule.ports?.length > 0 && rule.ports.every((port: any) => port.port === 'metrics');
    const sources = (policy.spec?.ingress ?? []).filter((rule: any) => !metricsOnly(rule)).flatMap((rule: any) => rule.from ?? [{}]);
    const onlyGateway = sources.length > 0 && sources.every((source: any) => gateway && matches(source.podSelector?.matchLabels, podLabels(gateway)) && !source.namespaceSelector && !source.ipBlock);
    if (!onlyGateway) problems.push(`${policy.file}: NetworkPolicy/${policy.metadata.name} lets more than the gateway reach subgraphs`);
  }
  return problems;
}
