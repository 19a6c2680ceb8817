import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { deliverDue, type DeliveryOptions } from './deliver';
import { pruneDelivered } from './prune';
import { SUBGRAPH_NAMES } from '../../subgraphs/shared/subgraph-definition';
import { relayOutbox } from './relay';

/** Schemas that may hold an outbox: the subgraphs' own (docs/decisions.md, Data ownership). */
const SUBGRAPH_SCHEMAS = [...SUBGRAPH_NAMES];

/** Dispatcher settings (docs/webhooks.md lists the variables). */
export interface DispatcherOptions extends DeliveryOptions {
  /** Idle wait between empty rounds. */
  pollMs: number;
  /** Delivered events are kept this long for `webhookDeliveries`, then pruned. */
  retentionDays: number;
}

/** One round's work. */
export interface RoundResult {
  relayed: number;
  attempted: number;
}

/**
 * Relays every subgraph's outbox into the delivery log and delivers what is due, in rounds:
 * back to back while there is work, `pollMs` apart when idle. Several dispatchers (processes or
 * replicas) may run over one database: claims are `SKIP LOCKED` with a lease.
 */
export class WebhookDispatcher {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private schemas: { names: string[]; readAt: number } = { names: [], readAt: 0 };
  private lastPrune = 0;

  constructor(private readonly pool: Pool, private readonly options: DispatcherOptions, private readonly log: Logger) {}

  /** Starts the background loop. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops after the current round; in-flight attempts finish (their lease would retry them anyway). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  /** Runs one relay and delivery round (tests and the loop). */
  async runOnce(): Promise<RoundResult> {
    let relayed = 0;
    for (const schema of await this.outboxSchemas()) relayed += await relayOutbox(this.pool, schema, this.options.batchSize);
    const attempted = await deliverDue(this.pool, this.options);
    if (Date.now() - this.lastPrune > 3_600_000) {
      this.lastPrune = Date.now();
      const pruned = await pruneDelivered(this.pool, await this.outboxSchemas(), this.options.retentionDays);
      if (pruned > 0) this.log.info({ pruned }, 'webhook log pruned');
    }
    return { relayed, attempted };
  }

  private async run(): Promise<void> {
    while (this.running) {
      let busy = false;
      try {
        const round = await this.runOnce();
        busy = round.relayed > 0 || round.attempted > 0;
      } catch (error) {
        this.log.error({ err: error }, 'webhook dispatch round failed');
      }
      if (!busy && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  /** Schemas that have an outbox; re-read now and then so a newly migrated subgraph is picked up. */
  private async outboxSchemas(): Promise<string[]> {
    if (Date.now() - this.schemas.readAt > 30_000) {
      // Only the platform's own subgraph schemas: the names are interpolated into SQL as identifiers.
      const { rows } = await this.pool.query<{ table_schema: string }>(
        `select table_schema from information_schema.tables where table_name = 'outbox_events' and table_schema = any($1) order by table_schema`,
        [SUBGRAPH_SCHEMAS],
      );
      this.schemas = { names: rows.map((r) => r.table_schema), readAt: Date.now() };
    }
    return this.schemas.names;
  }
}
