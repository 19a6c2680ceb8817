import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The tenancy rule in data access (docs/architecture.md, Rules of the house; docs/decisions.md,
 * One tenancy rule and One data-access style): queries live in repositories only, a
 * tenant-scoped repository takes a `TenantScope` and binds its tenant id in every query, and the
 * tenant guard (the ORM's `tenant` filter) sits under every query of every subgraph, billing's
 * included: every entity carries it, and SQL the guard cannot reach is written only where listed
 * with its reason. Read from the source, no database: a query written outside a repository, a
 * repository method that forgets the scope, an entity without the guard or unlisted SQL fails
 * here with what to do instead.
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
  'ApiKeyRepository.createUnscoped': 'the operator issues a key for a tenant',
  'ApiKeyRepository.saveRevocationUnscoped': 'the operator revokes a key by id',
  'TenantRepository.createUnscoped': "the operator's tenant creation",
  'SessionRepository.findOpenUnscoped': "the edge resolves a session cookie before it knows the tenant",
  'SessionRepository.createUnscoped': 'a person who just signed in gets a session, before any request of theirs',
  'SessionRepository.saveUnscoped': 'the edge ends or moves on a session it resolved unscoped; accepting an invitation activates its person',
  'SessionRepository.findInvitationUnscoped': 'an invitation is accepted with its secret token, before its person can sign in',
  'UserRepository.findActiveByEmailUnscoped': 'signing in names the tenant and e-mail before there is a session',
  'TenantRepository.singleSignOnUnscoped': "single sign-on begins for a named tenant before there is a session, with its provider's settings",
  'OidcLoginRepository.takeUnscoped': "a single sign-on comes back from the provider with only its secret state, before the tenant's request",
  'TenantRepository.twoFactorRequiredUnscoped': 'the edge resolves a session (and whether it may only enrol a second factor) before the tenant\'s request',
  'TenantRepository.anyAllowsOriginUnscoped': "a browser's preflight names an origin, not a tenant",
  'TenantRepository.allowsOriginUnscoped': 'the edge admits a bearer session from another origin before the tenant\'s request',
  'UserRepository.takeTotpStepUnscoped': 'a sign-in uses up its TOTP code before there is a session',
  'UserRepository.findByIdUnscoped': "a session or an invitation names its person, before the tenant's request",
  'TenantRepository.existsUnscoped': 'the operator names a tenant by id',
  'TenantRepository.findUnscoped': 'the operator names a tenant by id (issuing a test key finds or makes its twin)',
  'TenantRepository.twinOfUnscoped': "the operator's test key and key listing find a live tenant's test twin",
  'TenantRepository.lockUnscoped': "a live tenant's first test keys, issued at once, make one twin",
  'TenantRepository.insertUnscoped': "the operator's first test key of a tenant makes its test twin",
  'TenantRepository.modeUnscoped': "the edge verifies a key, and learns its tenant's mode, before it knows the tenant",
  'ApiKeyRepository.listOfTenantsUnscoped': "the operator lists a tenant's keys, live and test (its twin's)",
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
  // A processor's ids are one tenant's alone: whether another tenant holds one is a yes or no, nothing of theirs.
  'PaymentMethodRepository.heldByAnotherTenantUnscoped': "a processor token is one tenant's: is it another tenant's?",
  'MerchantAccountRepository.heldByAnotherTenantUnscoped': "a processor account id is one tenant's: is it another tenant's?",
};

/**
 * Scoped repository methods that run SQL the tenant guard does not reach (raw SQL, prepared
 * statements, a query builder without `applyFilters`), each with its reason; they bind
 * `this.scope.tenantId` themselves (the test above checks). Everything else goes through the
 * ORM's find, count, flush and native calls, which the guard covers. The list only shrinks: a
 * listed method that no longer runs such SQL fails the test too. Unscoped methods are listed above.
 */
const RAW_SQL_METHODS: Record<string, string> = {
  // Transaction-scoped advisory locks: no ORM call takes one, and they read no rows; the key names the tenant.
  'PaymentMethodRepository.lockPatient': "advisory lock serialising one patient's new methods",
  'MerchantAccountRepository.lockTenant': "advisory lock serialising one tenant's default account changes",
  'NotificationRepository.lockedDailyCount': "advisory lock serialising one tenant's e-mail quota (the count itself is an ORM query)",
  'GiftCardRepository.insert': 'insert ... on conflict do nothing: a taken code must not abort the transaction that draws the next (the guard covers no insert anyway)',
  // Hot paths measured in bench/RESULTS.md: prepared statements, parsed once per connection.
  'TenantRepository.current': 'prepared statement on the hot path (docs/decisions.md, Hot reads as prepared statements)',
  'TenantRepository.currentPublic': 'prepared statement on the hot path (GET /tenant/public)',
  'NoteTemplateRepository.findForMigration': "prepared statement at every migration stream's start",
  'NoteTemplateRepository.shiftQuestions': 'position = position + 1 over many rows in one statement',
  'AssetRepository.store': "upsert returning the existing row's id: two concurrent uploads cannot both insert",
  // The analytics campaign list: counts of opportunities per page row in one statement.
  'CampaignRepository.list': 'campaign page with opportunity counts and its total in one statement',
  'CampaignRepository.select': 'the statement behind list and findById',
  // The webhook delivery log has no entity: its jobs write it with pg-boss's Db (the Unscoped methods above).
  'WebhookDeliveryRepository.page': 'the delivery log (no entity)',
  'WebhookDeliveryRepository.find': 'the delivery log (no entity)',
  'WebhookDeliveryRepository.attempts': 'the delivery log (no entity)',
  'WebhookDeliveryRepository.requeue': 'the delivery log (no entity)',
  'WebhookDeliveryRepository.insertTest': 'the delivery log (no entity)',
  // The audit trail is written in SQL by every subgraph (platform/audit) and has no entity.
  'AuditEventRepository.page': 'the audit trail (no entity)',
  'AuditEventRepository.between': "the audit trail (no entity): an export's keyset walk",
  'AuditEventRepository.head': 'the audit trail (no entity)',
  'AuditEventRepository.verifyChain': 'the audit trail (no entity): the verifier reads the chain in SQL',
};

/** SQL the tenant guard does not reach: raw statements, prepared statements, pg clients, and a query builder (unless its method applies the filters). */
const RAW_SQL = /\b(?:getConnection|getKnex)\s*\(|\.\s*execute\s*[<(]|\bqueryPrepared\s*[<(]|\bexecuteSql\s*[<(]|\b(?:pool|client)\s*\.\s*query\s*[<(]|\bcreateQueryBuilder\s*[<(]/;

/**
 * Private helpers of scoped repositories that run SQL their callers write. One that binds the
 * scope itself passes; for one that does not, each caller counts as a query and must bind it.
 */
const PASS_THROUGH_HELPERS = new Set(['select']);

/** Entity manager calls that query or write, inside a repository method. */
const REPOSITORY_QUERY = /this\.em\s*\.\s*(find\w*|count|create|createQueryBuilder|native\w+|getConnection|execute|upsert\w*|insert\w*)\s*[<(]|queryPrepared\s*[<(]\s*this\.em/;

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

/** The classes of a source file, with their bodies (exported, at the top level, as the house style writes them). */
const classesOf = (text: string) => [...text.matchAll(/^export class (\w+)[^{]*\{([\s\S]*?)^\}/gm)].map(([, name, body]) => ({ name, body }));

const subgraphFiles = sourceFiles(SUBGRAPHS).filter((f) => !f.startsWith('subgraphs/common/') && f.split('/').length > 2);
const repositoryFiles = subgraphFiles.filter((f) => f.includes('/repositories/'));
const entityFiles = subgraphFiles.filter((f) => f.includes('/entities/') && f.endsWith('.entity.ts'));

describe('the tenancy rule in data access', () => {
  it('finds the subgraphs, their repositories and entities (the test reads the right folder)', () => {
    expect(subgraphFiles.length).toBeGreaterThan(100);
    expect(repositoryFiles.length).toBeGreaterThan(15);
    for (const subgraph of ['tenant', 'billing', 'analytics', 'notes']) {
      expect(repositoryFiles.some((f) => f.startsWith(`subgraphs/${subgraph}/`))).toBe(true);
      expect(entityFiles.some((f) => f.startsWith(`subgraphs/${subgraph}/`))).toBe(true);
    }
  });

  it('puts every entity of every subgraph under the tenant guard', () => {
    // Every class of the entity files with its decorators and base (an entity may extend an abstract base of its own file).
    const classes = entityFiles.flatMap((file) =>
      [...code(read(file)).matchAll(/((?:@\w+\((?:[^()]|\([^()]*\))*\)\s*)*)(?:export\s+)?(?:abstract\s+)?class\s+(\w+)(?:\s+extends\s+(\w+))?/g)].map(
        ([, decorators, name, base]) => ({ file, name, base, isEntity: /@Entity\(/.test(decorators), filtered: /@TenantFilter\(\)|@Filter\(\{\s*name:\s*'tenant'/.test(decorators) }),
      ),
    );
    const guarded = new Set(['TenantScopedEntity', ...classes.filter((c) => c.filtered).map((c) => c.name)]);
    for (let grown = true; grown; ) {
      grown = false;
      for (const c of classes) if (c.base && guarded.has(c.base) && !guarded.has(c.name)) (guarded.add(c.name), (grown = true));
    }
    const entities = classes.filter((c) => c.isEntity);
    expect(entities.length).toBeGreaterThan(20);
    const unguarded = entities.filter((c) => !guarded.has(c.name)).map((c) => `${c.file}: ${c.name}`);
    if (unguarded.length) {
      throw new Error(`Entities without the tenant guard:\n  ${unguarded.join('\n  ')}\nExtend TenantScopedEntity, or decorate the class with @TenantFilter() (subgraphs/common/base.entity.ts).`);
    }
  });

  it('reaches rows through the ORM under the guard: other SQL only in listed repository methods', () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const file of repositoryFiles) {
      for (const { name, body } of classesOf(code(read(file)))) {
        for (const method of methodsOf(body)) {
          const qualified = `${name}.${method.name}`;
          // Unscoped methods are outside the guard by definition, each listed with its reason in UNSCOPED_METHODS.
          if (method.isStatic || !RAW_SQL.test(method.body) || /\.applyFilters\s*\(/.test(method.body)) continue;
          seen.add(qualified);
          if (!(qualified in RAW_SQL_METHODS)) problems.push(`${file}: ${qualified} runs SQL the tenant guard does not reach`);
        }
      }
    }
    const stale = Object.keys(RAW_SQL_METHODS).filter((m) => !seen.has(m));
    if (stale.length) problems.push(`RAW_SQL_METHODS lists methods that no longer run such SQL: ${stale.join(', ')}`);
    if (problems.length) {
      throw new Error(
        `One data-access style (docs/architecture.md, Rules of the house):\n  ${problems.join('\n  ')}\n` +
          'Use the ORM (find, count, entities and flush, nativeUpdate), whose tenant filter guards the query; where a statement truly ' +
          'needs SQL the ORM cannot express, list the method in RAW_SQL_METHODS with its reason.',
      );
    }
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
      for (const { name, body } of classesOf(text)) {
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
