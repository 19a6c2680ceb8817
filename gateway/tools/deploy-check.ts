import { repoRoot } from '../../schema/paths';
import { manifestsDir, readManifests, schemaProblems } from './deploy-manifests';
import { composeProcesses, sameTopology, wiringProblems } from './deploy-topology';

/**
 * Every problem of deploy/kubernetes: files the kustomization misses, objects the Kubernetes API
 * schemas refuse, references that resolve to nothing, and differences from docker-compose.yml.
 */
export async function deployProblems(root = repoRoot(), dir = manifestsDir(root)): Promise<string[]> {
  const { manifests, problems } = readManifests(dir);
  return [...problems, ...(await schemaProblems(manifests, root)), ...wiringProblems(manifests), ...sameTopology(manifests, composeProcesses(root))];
}

if (require.main === module) {
  deployProblems().then(
    (problems) => {
      for (const problem of problems) console.log(problem);
      console.log(problems.length ? `${problems.length} problem(s) in deploy/kubernetes` : 'deploy/kubernetes: valid against the Kubernetes API schemas, wired, and the same topology as docker-compose.yml');
      process.exitCode = problems.length ? 1 : 0;
    },
    (err) => {
      console.error(err);
      process.exitCode = 2;
    },
  );
}
