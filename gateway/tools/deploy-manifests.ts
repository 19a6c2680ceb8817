import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { importEsm } from '../../platform/import-esm';
import { repoRoot } from '../../schema/paths';

/** One Kubernetes object of deploy/kubernetes, with the file it came from. */
export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** A model class of kubernetes-models: built from an object, `validate()` throws on a schema violation. */
type ModelClass = new (data: unknown) => { validate(): void };

/** The folder of the manifests an operator applies (`kubectl apply -k`). */
export const manifestsDir = (root = repoRoot()): string => join(root, 'deploy', 'kubernetes');

/** Every object of every file the kustomization lists, plus the problems of reading them. */
export function readManifests(dir: string): { manifests: Manifest[]; problems: string[] } {
  const problems: string[] = [];
  const listed: string[] = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')).resources ?? [];
  const present = readdirSync(dir).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
  for (const file of present) if (!listed.includes(file)) problems.push(`${file}: not listed in kustomization.yaml, so never applied`);
  const manifests: Manifest[] = [];
  for (const file of listed) {
    if (!present.includes(file)) {
      problems.push(`kustomization.yaml: lists ${file}, which does not exist`);
      continue;
    }
    for (const document of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      for (const error of document.errors) problems.push(`${file}: ${error.message}`);
      const object = document.toJS({ maxAliasCount: 100 });
      if (object === null || object === undefined) continue;
      manifests.push({ ...object, file });
    }
  }
  return { manifests, problems };
}

/** The installed module holding the model classes of an apiVersion (core `v1` has no group). */
function modelModule(root: string, apiVersion: string): string {
  if (apiVersion.startsWith('monitoring.coreos.com/')) return join(root, 'node_modules', '@kubernetes-models', 'prometheus-operator', apiVersion, 'index.js');
  return join(root, 'node_modules', 'kubernetes-models', apiVersion, 'index.js');
}

/**
 * Each object against the Kubernetes API's OpenAPI schemas (kubernetes-models, and the Prometheus
 * Operator's CRD schemas for a ServiceMonitor): types, formats, enums and required fields. Like the
 * API server without strict field validation, it lets unknown fields through; the topology checks
 * (deploy-topology.ts) look at the fields that matter by name.
 */
export async function schemaProblems(manifests: Manifest[], root = repoRoot()): Promise<string[]> {
  const problems: string[] = [];
  for (const manifest of manifests) {
    const where = `${manifest.file}: ${manifest.kind ?? '?'}/${manifest.metadata?.name ?? '?'}`;
    if (typeof manifest.apiVersion !== 'string' || typeof manifest.kind !== 'string') {
      problems.push(`${where}: apiVersion and kind are required`);
      continue;
    }
    if (manifest.apiVersion.startsWith('kustomize.config.k8s.io/')) continue;
    let models: Record<string, ModelClass>;
    try {
      models = await importEsm<Record<string, ModelClass>>(modelModule(root, manifest.apiVersion));
    } catch {
      problems.push(`${where}: unknown apiVersion ${manifest.apiVersion}`);
      continue;
    }
    const Model = models[manifest.kind];
    if (!Model) {
      problems.push(`${where}: ${manifest.apiVersion} has no kind ${manifest.kind}`);
      continue;
    }
    const { file: _file, ...object } = manifest;
    try {
      new Model(object).validate();
    } catch (err) {
      problems.push(`${where}: ${(err as Error).message}`);
    }
  }
  return problems;
}
