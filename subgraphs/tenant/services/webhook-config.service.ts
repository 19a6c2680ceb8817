import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ConflictError } from '../../../schema/errors';
import { Issues, optionalText, type IssueLoc } from '../../common/field-rules';
import type { WebhookConfig } from '../entities/webhook-config.entity';
import type { WebhookConfigInput } from '../inputs/webhook-config.input';
import { WebhookConfigRepository } from '../repositories/webhook-config.repository';
import { toWebhookConfigView, type WebhookConfigView } from '../webhook-config-view';
import { isWebhookEvent, WEBHOOK_EVENTS } from '../webhook-events';
import { webhookUrlProblem } from './webhook-url';
import { recordEvent } from '../../common/jobs/record-event';

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 24 random bytes (192 bits, Svix's size). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** What an update changes, validated. */
interface WebhookPatch {
  url?: string | null;
  enabled?: boolean;
  events?: string[];
  rotateSecret: boolean;
}

/** Reads and changes the calling tenant's webhook configuration (at most one per tenant). */
export class WebhookConfigService {
  private readonly configs: WebhookConfigRepository;

  /**
   * `audit`: the request's side of the audit trail, which `update` writes to; `allowInsecure`:
   * ALLOW_HTTP_WEBHOOKS=1 in the subgraph's settings (plain-http and internal endpoints, development only).
   */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit, private readonly allowInsecure = false) {
    this.configs = new WebhookConfigRepository(em, scope);
  }

  /** The configuration, or the unconfigured answer; never the secret. */
  async get(): Promise<WebhookConfigView> {
    return toWebhookConfigView(await this.configs.find());
  }

  /**
   * Validates and applies a partial update. The first save creates the secret, `rotateSecret`
   * replaces it; only then does the answer carry it whole. Nothing is written on a 422.
   */
  async update(input: WebhookConfigInput): Promise<WebhookConfigView> {
    const existing = await this.configs.find();
    const patch = validateWebhookUpdate(input, existing, this.allowInsecure);
    const config = existing ?? this.configs.add({ enabled: true, events: [...WEBHOOK_EVENTS], secret: newWebhookSecret() });
    // Re-enabling, or pointing the webhook elsewhere, starts the endpoint's health afresh; re-enabling also clears the platform's notice.
    const reenabled = patch.enabled === true && !config.enabled;
    if (reenabled || (patch.url !== undefined && patch.url !== config.url)) resetHealth(config);
    if (reenabled) [config.disabledAt, config.disabledReason] = [null, null];
    if (patch.url !== undefined) config.url = patch.url;
    if (patch.enabled !== undefined) config.enabled = patch.enabled;
    if (patch.events !== undefined) config.events = patch.events;
    const revealed = !existing || patch.rotateSecret;
    if (existing && patch.rotateSecret) config.secret = newWebhookSecret();
    // The event tells what changed, never the secret itself; the change, its event and its audit record commit together.
    try {
      await this.em.transactional(async (tx) => {
        await recordEvent(tx, this.scope, 'webhook_config.updated', { url: config.url, enabled: config.enabled, events: [...config.events], secretRotated: revealed });
        await this.audit.change(tx, 'webhook_config.update', 'webhook_config', [config.id]);
      });
    } catch (error) {
      // Two first saves raced on the one-per-tenant constraint: the loser retries against the winner's row.
      if (error instanceof UniqueConstraintViolationException) throw new ConflictError('The webhook configuration was changed concurrently; retry');
      throw error;
    }
    return toWebhookConfigView(config, revealed);
  }
}

/**
 * Clears the dispatchers' record of failures: the endpoint is tried again as a new one. Events
 * logged as failed while it was disabled stay in the log, and are sent again one by one with
 * `redeliverWebhookEvent` (docs/webhooks.md).
 */
function resetHealth(config: WebhookConfig): void {
  config.consecutiveFailures = 0;
  config.failingSince = null;
  config.circuitOpenUntil = null;
}

/** Every rule of the update at once: URL safety, the event catalogue, and an enabled endpoint needing a URL. */
function validateWebhookUpdate(input: WebhookConfigInput, existing: WebhookConfig | null, allowInsecure: boolean, at: IssueLoc = ['input']): WebhookPatch {
  const issues = new Issues();
  const patch: WebhookPatch = { rotateSecret: input.rotateSecret === true };
  const url = optionalText(input.url);
  if (url !== undefined) {
    const problem = url === null ? null : webhookUrlProblem(url, allowInsecure);
    if (problem) issues.value([...at, 'url'], problem, input.url);
    else patch.url = url;
  }
  if (input.enabled === null) issues.add({ type: 'bool_type', loc: [...at, 'enabled'], msg: 'Input should be a valid boolean', input: null });
  else if (input.enabled !== undefined) patch.enabled = input.enabled;
  if (input.events === null) issues.add({ type: 'list_type', loc: [...at, 'events'], msg: 'Input should be a valid list', input: null });
  else if (input.events !== undefined) {
    const allowed = WEBHOOK_EVENTS.join(', ');
    input.events.forEach((name, i) => {
      if (!isWebhookEvent(name)) issues.value([...at, 'events', i], `unknown event '${name}'; allowed: ${allowed}`, name);
    });
    patch.events = [...new Set(input.events)];
  }
  const finalUrl = patch.url !== undefined ? patch.url : (existing?.url ?? null);
  const finalEnabled = patch.enabled ?? existing?.enabled ?? true;
  if (issues.list.length === 0 && finalEnabled && finalUrl === null) {
    issues.value([...at, 'url'], 'url is required while the webhook is enabled', input.url ?? null);
  }
  issues.throwIfAny();
  return patch;
}
