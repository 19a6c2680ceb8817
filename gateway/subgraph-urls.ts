import { SUBGRAPH_NAMES, type SubgraphName } from '../platform/subgraph-definition';

/** The replicas of each subgraph service, in the order SUBGRAPH_<NAME>_URL lists them. */
export type SubgraphUrls = Partial<Record<SubgraphName, readonly string[]>>;

/** The variable naming a subgraph's replicas. */
export const subgraphUrlVariable = (name: SubgraphName): string => `SUBGRAPH_${name.toUpperCase()}_URL`;

/**
 * Reads SUBGRAPH_<NAME>_URL for every subgraph: one base URL, or several replicas separated by
 * commas (docs/operations.md, Subgraph replicas). Every entry must be an absolute http(s) URL; a
 * bad one is reported naming its variable and position, never as a bare `Invalid URL` at the
 * first request. Required in distributed mode.
 */
export function readSubgraphUrls(env: NodeJS.ProcessEnv, distributed: boolean, problems: string[]): SubgraphUrls {
  const urls: SubgraphUrls = {};
  for (const name of SUBGRAPH_NAMES) {
    const variable = subgraphUrlVariable(name);
    const raw = env[variable]?.trim();
    if (!raw) {
      if (distributed) problems.push(`${variable} is required in distributed mode`);
      continue;
    }
    const entries = raw.split(',').map((entry) => entry.trim());
    const replicas: string[] = [];
    entries.forEach((entry, index) => {
      const where = entries.length > 1 ? `${variable} (entry ${index + 1} of ${entries.length}, "${entry}")` : `${variable} ("${entry}")`;
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        return void problems.push(`${where} is not a URL: give one base URL, or several separated by commas, e.g. http://billing-1:4002,http://billing-2:4002`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return void problems.push(`${where} must be an http:// or https:// URL`);
      if (replicas.includes(url.origin + url.pathname)) return void problems.push(`${where} is listed twice`);
      replicas.push(url.origin + url.pathname);
    });
    if (replicas.length === entries.length) urls[name] = replicas;
  }
  return urls;
}
