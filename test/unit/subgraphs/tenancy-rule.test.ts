import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The tenancy rule in data access (docs/architecture.md, Rules of the house; docs/decisions.md,
 * One tenancy rule): queries live in repositories only, and a tenant-scoped repository takes a
 * `TenantScope` and binds its tenant id in every query. Read from the source, no database: a
 * query written outside a repository, or a repository method that forgets the scope, fails here
 * with what to do instead.
 */

const ROOT = join(__dirname, '../../..');
const SUBGRAPHS = join(ROOT, 'subgraphs');

/** Every .ts file under a folder, as paths relative to the repository root. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** Comments say why and may name a call; only code counts. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/**
 * A query or write through the entity manager (`em`, `tx`, `ctx.em`, `this.em`, `this.em()`), or
 * raw SQL on a pg client. `transactional` and `fork` are not here: where a transaction begins and
 * ends is a service's rule (what must be atomic), and the repositories it builds on the
 * transaction's entity manager do the queries.
 */
const QUERY_CALL =
  /\b(?:(?:this\.|ctx\.)?em(?:\(\))?|tx|trx)\s*\.\s*(find\w*|count|create|assign|remove\w*|persist\w*|flush|native\w+|upsert\w*|insert\w*|execute|getConnection|getKnex|createQueryBuilder|qb|lock|refresh|populate|merge|getReference)\s*[<(]|\b(?:pool|db|client|tx|tx\.db)\s*\.\s*(query|executeSql)\s*[<(]|\bqueryPrepared\s*[<(]/g;

/**
 * Files outside repositories that may still query, each with its reason. The test also fails when
 * a listed file no longer queries, so the list only shrinks. Nothing else belongs here: a new
 * query goes into a repository.
 */
const QUERIES_OUTSIDE_REPOSITORIES: Record<string, string> = {
  // Already scoped: the analytics query engine builds its SQL with the tenant id as a bound
  // parameter (query/build-query.ts, revenue/revenue-where.ts) and runs it read-only.
  'subgraphs/analytics/query/read-only.ts': 'analytics query engine: runs the statements build-query binds the tenant into',
};

/**
 * The only ways to query without a scope: static repository methods whose names end in
 * `Unscoped`, each listed here with the reason it must cross tenants.
 */
const UNSCOPED_METHODS: Record<string, string> = {
  'ApiKeyRepository.findByLookupIdUnscoped': 'the edge verifies a key before it knows the tenant',
  'ApiKeyRepository.findByIdUnscoped': 'the operator revokes a key by id',
  'ApiKeyRepository.listOfTenantUnscoped': "the operator lists a tenant's keys",
  'ApiKeyRepository.createUnscoped': 'the operator issues a key for a tenant',
  'ApiKeyRepository.saveRevocationUnscoped': 'the operator revokes a key by id',
  'TenantRepository.createUnscoped': "the operator's tenant creation",
  'TenantRepository.existsUnscoped': 'the operator names a tenant by id',
  'TenantRepository.countUnscoped': 'the first start seeds a demo tenant only on an empty database',
  'AssetRepository.findPublicUnscoped': 'logos are public by unguessable id',
  'CampaignRepository.findByWebhookKeyUnscoped': 'a lead is posted with the secret webhook key and no API key',
  // The job workers and the metrics, on pg-boss's Db or a pool: a batch of jobs holds rows of several
  // tenants, so each statement binds every row's own tenant id (docs/webhooks.md, The dispatcher).
  'WebhookDeliveryRepository.claimUnscoped': 'delivery jobs claim their deliveries by job id, a batch across tenants',
  'WebhookDeliveryRepository.pendingJobsUnscoped': "which of a batch's unclaimed jobs another worker holds, across tenants",
  'WebhookDeliveryRepository.recordAttemptsUnscoped': "a delivery batch's attempts, each row with its delivery's tenant",
  'WebhookDeliveryRepository.settleUnscoped': "a delivery batch's next states, each row with its delivery's tenant",
  'WebhookDeliveryRepository.insertFromEventsUnscoped': "the relay turns a batch of events into deliveries, each in its event's tenant",
  'WebhookDeliveryRepository.adoptUnqueuedUnscoped': 'at start, pending deliveries of every tenant from before the job queue get a job',
  'WebhookDeliveryRepository.pruneDeliveredUnscoped': 'the hourly prune deletes old delivered rows of every tenant',
  'WebhookDeliveryRepository.backlogUnscoped': 'metrics: the delivery backlog across every tenant',
  'WebhookDeliveryRepository.dueUnscoped': "a delivery job's admission reads its delivery by job id, a batch across tenants",
  'WebhookDeliveryRepository.deferUnscoped': "the admission gives deliveries over their endpoint's share a later job, each row with its tenant",
  'WebhookConfigRepository.lockUnscoped': 'the admission locks the endpoints of a batch of deliveries, each its tenant',
  'WebhookConfigRepository.inFlightUnscoped': "the admission counts each endpoint's deliveries in flight in every process",
  'WebhookConfigRepository.markProbingUnscoped': "the admission marks a half-open breaker's probe, each endpoint its tenant's",
  'WebhookConfigRepository.recordHealthUnscoped': "a delivery batch's breaker and disabling bookkeeping (410 Gone included), each endpoint its tenant's",
  'NotificationRepository.adoptUnqueuedUnscoped': 'at start, unsent e-mails of every tenant from before the job queue get a job',
  'NotificationRepository.countDueUnscoped': 'metrics: the e-mail backlog across every tenant',
};

/**
 * Private helpers of scoped repositories that run SQL their callers write. One that binds the
 * scope itself passes; for one that does not, each caller counts as a query and must bind it.
 */
const PASS_THROUGH_HELPERS = new Set(['run', 'select']);

/** Entity manager calls that query or write, inside a repository method. */
const REPOSITORY_QUERY = /this\.em\s*\.\s*(find\w*|count|create|native\w+|getConnection|upsert\w*|insert\w*)\s*[<(]|queryPrepared\s*[<(]\s*this\.em/;

interface Method {
  name: string;
  isStatic: boolean;
  body: string;
}

/** The methods of a class body, split at each member's header (two-space indented, as the house style writes them; type parameters may nest once). */
function methodsOf(classBody: string): Method[] {
  const header = /^ {2}(?:(?:private|public|protected)\s+)?(static\s+)?(?:async\s+)?(\w+)\s*(?:<(?:[^<>]|<[^<>]*>)*>)?\(/gm;
  const found = [...classBody.matchAll(header)];
  return found.map((match, i) => ({
    name: match[2],
    isStatic: !!match[1],
    body: classBody.slice(match.index, i + 1 < found.length ? found[i + 1].index : undefined),
  }));
}

const subgraphFiles = sourceFiles(SUBGRAPHS).filter((f) => !f.startsWith('subgraphs/common/') && f.split('/').length > 2);
const repositoryFiles = subgraphFiles.filter((f) => f.includes('/repositories/'));

describe('the tenancy rule in data access', () => {
  it('finds the subgraphs and their repositories (the test reads the right folder)', () => {
    expect(subgraphFiles.length).toBeGreaterThan(100);
    expect(repositoryFiles.length).toBeGreaterThan(15);
  });

  it('keeps queries and entity writes in repositories', () => {
    const offenders = subgraphFiles
      .filter((f) => !f.includes('/repositories/') && !f.includes('/migrations/') && !(f in QUERIES_OUTSIDE_REPOSITORIES))
      .flatMap((f) => [...code(read(f)).matchAll(QUERY_CALL)].map((m) => `${f}: ${m[0]}`));
    if (offenders.length > 0) {
      throw new Error(
        `Queries outside a repository (docs/architecture.md, Rules of the house: the tenancy rule):\n  ${offenders.join('\n  ')}\n` +
          'Move each into a method of the subgraph\'s repository (subgraphs/<name>/repositories/), built with the request\'s ' +
          'TenantScope (requireScope(ctx)) and binding scope.tenantId; a service keeps only em.transactional(...) and hands the ' +
          'transaction\'s entity manager to its repositories.',
      );
    }
  });

  it('keeps the list of files still querying outside repositories true', () => {
    const stale = Object.keys(QUERIES_OUTSIDE_REPOSITORIES).filter((f) => !subgraphFiles.includes(f) || [...code(read(f)).matchAll(QUERY_CALL)].length === 0);
    expect(stale).toEqual([]);
  });

  it('gives every repository a TenantScope, and binds it in every query', () => {
    const problems: string[] = [];
    const unscopedSeen = new Set<string>();
    for (const file of repositoryFiles) {
      const text = code(read(file));
      for (const cls of text.matchAll(/^export class (\w+)[^{]*\{([\s\S]*?)^\}/gm)) {
        const [, name, body] = cls;
        if (!/constructor\s*\([^)]*\bscope\s*:\s*TenantScope\b/.test(body)) {
          problems.push(`${file}: ${name}'s constructor takes no \`scope: TenantScope\`; every repository is built with the request's scope`);
        }
        const methods = methodsOf(body);
        // Helpers that leave the binding to their callers: a call of one is a query of the caller.
        const unboundHelpers = methods.filter((m) => PASS_THROUGH_HELPERS.has(m.name) && !/this\.scope\.tenantId/.test(m.body)).map((m) => m.name);
        const helperCall = unboundHelpers.length ? new RegExp(`this\\.(?:${unboundHelpers.join('|')})\\s*[<(]`) : null;
        for (const method of methods) {
          const qualified = `${name}.${method.name}`;
          if (method.isStatic) {
            if (!method.name.endsWith('Unscoped') || !(qualified in UNSCOPED_METHODS)) {
              problems.push(`${file}: static ${qualified} runs without a scope; name it ...Unscoped and list it with its reason in UNSCOPED_METHODS, or make it an instance method that binds this.scope.tenantId`);
            }
            unscopedSeen.add(qualified);
            continue;
          }
          if (method.name === 'constructor' || PASS_THROUGH_HELPERS.has(method.name)) continue;
          if (/filters\s*:\s*false/.test(method.body)) {
            problems.push(`${file}: ${qualified} turns the tenant filter off; only a listed static ...Unscoped method may`);
          }
          const queries = REPOSITORY_QUERY.test(method.body) || !!helperCall?.test(method.body);
          if (queries && !/this\.scope\.tenantId/.test(method.body)) {
            problems.push(`${file}: ${qualified} queries without this.scope.tenantId; add \`tenantId: this.scope.tenantId\` to its where (ORM) or bind it as \`tenant_id = ?\` (SQL)`);
          }
        }
      }
    }
    const listedButGone = Object.keys(UNSCOPED_METHODS).filter((m) => !unscopedSeen.has(m));
    if (listedButGone.length) problems.push(`UNSCOPED_METHODS lists methods that no longer exist: ${listedButGone.join(', ')}`);
    if (problems.length > 0) throw new Error(`The tenancy rule (docs/architecture.md, Rules of the house):\n  ${problems.join('\n  ')}`);
  });
});
