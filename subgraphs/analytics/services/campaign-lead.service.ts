import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, NotFoundError } from '../../../schema/errors';
import { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import type { Campaign } from '../entities/campaign.entity';
import { CampaignRepository } from '../repositories/campaign.repository';
import type { CampaignLeadInput } from '../inputs/campaign-lead.input';
import { isEmail } from '../../common/field-rules';
import { checkFreeFormMap } from '../../common/free-form-limits';
import { checkOptionalText, Issues, MAX_NAME_LENGTH } from './input-rules';
import { recordEvent } from '../../common/jobs/record-event';

/** What the lead endpoint answers: the new opportunity, and where the form sends the visitor next. */
export interface CampaignLeadReceipt {
  opportunityId: string;
  redirectUrl: string | null;
}

/** A webhook key as `newWebhookKey` makes them; anything else cannot be one and is not looked up. */
const WEBHOOK_KEY = /^[A-Za-z0-9_-]{43}$/;
const MAX_EMAIL_LENGTH = 254;
const MAX_PHONE_LENGTH = 50;

function checkLead(input: CampaignLeadInput): { name: string | null; email: string | null; phone: string | null } {
  const issues = new Issues();
  const name = checkOptionalText(issues, ['input', 'name'], input.name, MAX_NAME_LENGTH) ?? null;
  const email = checkOptionalText(issues, ['input', 'email'], input.email, MAX_EMAIL_LENGTH) ?? null;
  if (email && !isEmail(email)) issues.value(['input', 'email'], 'value is not a valid email address', input.email);
  const phone = checkOptionalText(issues, ['input', 'phone'], input.phone, MAX_PHONE_LENGTH) ?? null;
  // An anonymous caller's map: bounded like Stripe's metadata (finding 10 of issue 31: 9,000 keys were stored).
  if (input.fields != null) checkFreeFormMap(issues, ['input', 'fields'], input.fields, 'scalars');
  if (!issues.list.length && !name && !email && !phone) issues.value(['input'], 'name, email or phone is required', input);
  issues.throwIfAny();
  return { name, email, phone };
}

/**
 * The public side of a campaign's webhook (contract part 6.1, `webhook.webhookUrl`): a form or ad
 * platform posts a lead with no API key, the key in the URL being the secret. There is no tenant in
 * the request, so the campaign is found by its key in the one unscoped lookup, and the opportunity
 * is written in the scope of that campaign's tenant.
 */
export class CampaignLeadService {
  /**
   * `auditFor`: the request's audit trail in the tenant it finds (ctx.auditFor): the request has
   * no tenant of its own, so the lead's record goes to the campaign's tenant, its actor `system`
   * (no key signed it). Only `submit` records; `open` writes nothing.
   */
  constructor(private readonly em: EntityManager, private readonly auditFor: (tenantId: string) => RequestAudit) {}

  /**
   * The campaign that takes leads at this key. Unknown key -> 404; inactive campaign -> 409. Asked
   * on its own by the lead endpoint before it reads a lead (docs/decisions.md, "Nothing is read
   * before it is allowed"), and again by `submit`, since a campaign can be switched off in between.
   */
  async open(webhookKey: string): Promise<Campaign> {
    const campaign = WEBHOOK_KEY.test(webhookKey) ? await CampaignRepository.findByWebhookKeyUnscoped(this.em, webhookKey) : null;
    if (!campaign) throw new NotFoundError('Campaign not found');
    if (!campaign.isActive) throw new ConflictError('Campaign is not accepting leads');
    return campaign;
  }

  /** Records a lead as a NEW opportunity, with its audit record in the same transaction. Unknown key -> 404; inactive campaign -> 409. */
  async submit(webhookKey: string, input: CampaignLeadInput): Promise<CampaignLeadReceipt> {
    const contact = checkLead(input);
    const campaign = await this.open(webhookKey);
    const audit = this.auditFor(campaign.tenantId);
    const opportunity = await this.em.transactional(async (tx) => {
      const scope = TenantScope.ofStoredRow(campaign.tenantId);
      const created = new CampaignRepository(tx, scope).addOpportunity({
        campaignId: campaign.id,
        ...contact,
        // The lead exactly as posted: the platform's own fields are the clinic's record of where it came from.
        source: { ...input },
      });
      // Contact details stay out of the event: the receiver reads them through the API with its key.
      await recordEvent(tx, scope, 'opportunity.created', { id: created.id, campaignId: campaign.id });
      await audit.change(tx, 'campaign_lead.submit', 'campaign_lead', [created.id]);
      return created;
    });
    return { opportunityId: opportunity.id, redirectUrl: campaign.redirectUrl };
  }
}
