import { randomBytes } from 'node:crypto';
import { CheckConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ConflictError, NotFoundError } from '../../../schema/errors';
import { toConnection, type Connection, type ConnectionArgs } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import { Campaign } from '../entities/campaign.entity';
import type { CreateCampaignInput, UpdateCampaignInput } from '../inputs/campaign.input';
import { campaignKeys, CampaignRepository, type CampaignListQuery } from '../repositories/campaign.repository';
import { toCampaignView, type CampaignView } from './campaign-view';
import { checkIntRange, parseHttpUrl } from '../../common/field-rules';
import { checkName, checkOptionalText, Issues, MAX_REFERENCE_LENGTH, MAX_TEXT_LENGTH, typeIssue } from './input-rules';
import { recordEvent } from '../../common/jobs/record-event';
import { staleRead } from '../../../platform/replica/stale-read';

/** Fields a campaign write may carry, once checked. */
type CampaignChanges = Partial<Pick<Campaign, 'name' | 'locationId' | 'description' | 'platformId' | 'platformAssetId' | 'isActive' | 'startDate' | 'endDate' | 'budgetCents' | 'pipelineId' | 'redirectUrl'>>;

const OPTIONAL_REFERENCES = ['locationId', 'platformId', 'platformAssetId', 'pipelineId'] as const;

/** A date as the client most likely wrote it, for a 422's `input` (the subgraph only sees the parsed value). */
const asSent = (date: Date) => date.toISOString().replace('.000Z', 'Z');
/** The budget column is a 32-bit integer (migration Migration20261201000100_campaigns). */
const MAX_BUDGET_CENTS = 2_147_483_647;

/** The campaign's lead endpoint secret: 256 random bits, URL-safe. */
export const newWebhookKey = (): string => randomBytes(32).toString('base64url');

/**
 * Checks the fields present in `input` (absent ones are left alone) against the rules of contract
 * part 4.5: non-empty name, budget not negative, end not before start (against the stored dates
 * for a partial update), and a redirect URL that a browser can follow.
 */
function checkCampaign(input: CreateCampaignInput | UpdateCampaignInput, stored: Pick<Campaign, 'startDate' | 'endDate'> | null): CampaignChanges {
  const issues = new Issues();
  const changes: CampaignChanges = {};
  const has = (key: string) => (input as Record<string, unknown>)[key] !== undefined;
  const reference = (key: (typeof OPTIONAL_REFERENCES)[number]) => {
    if (has(key)) changes[key] = checkOptionalText(issues, ['input', key], (input as Record<string, string | null>)[key], MAX_REFERENCE_LENGTH);
  };
  // In the contract's field order, as Pydantic reports a model's errors.
  if (has('name')) changes.name = checkName(issues, ['input', 'name'], input.name);
  reference('locationId');
  if (has('description')) changes.description = checkOptionalText(issues, ['input', 'description'], input.description, MAX_TEXT_LENGTH);
  reference('platformId');
  reference('platformAssetId');
  if (input.isActive === null) issues.add(typeIssue(['input', 'isActive'], 'bool_type', null));
  else if (has('isActive')) changes.isActive = input.isActive;
  if (has('startsAt')) changes.startDate = input.startsAt;
  if (has('endsAt')) changes.endDate = input.endsAt;
  const start = has('startsAt') ? input.startsAt : stored?.startDate;
  const end = has('endsAt') ? input.endsAt : stored?.endDate;
  if (start && end && end < start) {
    const field = has('endsAt') ? 'endsAt' : 'startsAt';
    issues.value(['input', field], 'endsAt must not be before startsAt', asSent(field === 'endsAt' ? end : start));
  }
  if (has('budgetCents')) {
    if (input.budgetCents != null && input.budgetCents < 0) issues.value(['input', 'budgetCents'], 'budgetCents must not be negative', input.budgetCents);
    // The graph takes SafeInt money; the column is a 32-bit integer, refused as the bridge refused an Int beyond it.
    else if (input.budgetCents != null) checkIntRange(issues, ['input', 'budgetCents'], input.budgetCents, 0, MAX_BUDGET_CENTS);
    changes.budgetCents = input.budgetCents;
  }
  reference('pipelineId');
  if (has('redirectUrl')) changes.redirectUrl = checkRedirectUrl(issues, input.redirectUrl);
  issues.throwIfAny();
  return changes;
}

function checkRedirectUrl(issues: Issues, value: string | null | undefined): string | null | undefined {
  const text = checkOptionalText(issues, ['input', 'redirectUrl'], value, MAX_TEXT_LENGTH);
  if (text && !parseHttpUrl(text)) return void issues.value(['input', 'redirectUrl'], 'redirectUrl must be an absolute http or https URL', value);
  return text;
}

/** Campaigns of one tenant (contract part 4.5): reads with their opportunity counts, and writes. */
export class CampaignService {
  private readonly campaigns: CampaignRepository;

  /** `audit`: the request's side of the audit trail (ctx.audit), which every write records to in its own transaction. */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly publicUrl: string, private readonly audit: RequestAudit) {
    this.campaigns = new CampaignRepository(em, scope);
  }

  /** The campaign with its counts, or 404 for an unknown id of any shape and for another tenant's. */
  async get(id: string): Promise<CampaignView> {
    const record = await this.campaigns.findById(id);
    if (!record) throw new NotFoundError('Campaign not found');
    return toCampaignView(record, this.publicUrl);
  }

  /** One window of the tenant's campaigns with their counts (one statement for the rows, one for the count). */
  async list(query: CampaignListQuery & ConnectionArgs): Promise<Connection<CampaignView>> {
    const keys = campaignKeys(query);
    const window = listWindow(query, keys);
    // A list may be seconds stale (the replica's, within its lag bound); `get`, which a write answers with, reads the primary.
    const slice = await staleRead(this.em, (connection) => this.campaigns.list(query, window, connection));
    return toConnection(slice, keyValues(keys), (r) => toCampaignView(r, this.publicUrl));
  }

  /** Creates a campaign with a fresh webhook key, with its audit record in the same transaction. */
  async create(input: CreateCampaignInput): Promise<CampaignView> {
    const changes = checkCampaign(input, null);
    const campaign = await this.em.transactional(async (tx) => {
      const created = await new CampaignRepository(tx, this.scope).create({ ...changes, webhookKey: newWebhookKey() });
      await this.audit.change(tx, 'campaign.create', 'campaign', [created.id]);
      return created;
    });
    return this.get(campaign.id);
  }

  /**
   * Changes only the fields sent. The dates are checked against the stored ones (only one end of
   * the range may be sent); bad input is a 422 even for an unknown id, as FastAPI validates first.
   */
  async update(id: string, input: UpdateCampaignInput): Promise<CampaignView> {
    const campaign = await this.campaigns.loadForUpdate(id);
    const changes = checkCampaign(input, campaign);
    if (!campaign) throw new NotFoundError('Campaign not found');
    Object.assign(campaign, changes);
    try {
      await this.em.transactional(async (tx) => {
        await recordEvent(tx, this.scope, 'campaign.updated', { id: campaign.id, changedFields: Object.keys(changes).sort() });
        await this.audit.change(tx, 'campaign.update', 'campaign', [campaign.id]);
      });
    } catch (error) {
      // Two updates moving each end of the range at once can cross: the database's check catches it.
      if (error instanceof CheckConstraintViolationException) throw new ConflictError('The campaign changed meanwhile; read it and retry');
      throw error;
    }
    return this.get(campaign.id);
  }
}
