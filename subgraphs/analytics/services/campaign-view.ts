import type { CampaignRecord } from '../repositories/campaign.repository';

/** A campaign as the API shows it: the record, with its webhook object assembled (contract part 2). */
export interface CampaignView extends Omit<CampaignRecord, 'webhookKey' | 'redirectUrl'> {
  webhook: { webhookKey: string; webhookUrl: string; redirectUrl: string | null };
}

/** Path of the public lead endpoint under the API's base URL; REST route and webhookUrl agree on it. */
export const LEAD_PATH = '/opportunity/leads';

/** Builds the view; `publicUrl` is where the API is reached from outside (PUBLIC_URL). */
export function toCampaignView(record: CampaignRecord, publicUrl: string): CampaignView {
  const { webhookKey, redirectUrl, ...rest } = record;
  return { ...rest, webhook: { webhookKey, webhookUrl: `${publicUrl}${LEAD_PATH}/${webhookKey}`, redirectUrl } };
}
