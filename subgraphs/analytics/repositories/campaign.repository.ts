import type { EntityManager } from '@mikro-orm/postgresql';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { Campaign } from '../entities/campaign.entity';
import { Opportunity } from '../entities/opportunity.entity';
import { SortDirection } from '../../common/pagination';
import { CampaignSortField } from '../types/enums';
import { escapeLike } from '../../common/field-rules';
import type { ListSlice } from '../../common/connection';
import { readSlice, sqlCondition, sqlOrder } from '../../common/keyset';
import type { ListWindow, SortKey, SortKeyKind } from '../../common/list-window';
import type { ReadConnection } from '../../../platform/replica/stale-read';

/** A campaign row with its opportunity counts, as reads return it (property names of the Campaign entity). */
export interface CampaignRecord {
  id: string;
  name: string;
  locationId: string | null;
  description: string | null;
  platformId: string | null;
  platformAssetId: string | null;
  externalCampaignId: string | null;
  externalResourceName: string | null;
  externalName: string | null;
  externalStatus: string | null;
  externalCurrency: string | null;
  externalDailyBudgetCents: number | null;
  externalLifetimeBudgetCents: number | null;
  externalLastSeenAt: Date | null;
  externalLastSyncedAt: Date | null;
  externalStaleAt: Date | null;
  externalSyncError: string | null;
  isActive: boolean;
  startDate: Date | null;
  endDate: Date | null;
  budgetCents: number | null;
  pipelineId: string | null;
  webhookKey: string;
  redirectUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
  opportunityCount: number;
  convertedCount: number;
}

/** What a campaign list asks for. */
export interface CampaignListQuery {
  sortBy: CampaignSortField;
  sortDirection: SortDirection;
  locationId?: string | null;
  isActive?: boolean | null;
  name?: string | null;
}

const COLUMNS = `c.id, c.name, c.location_id as "locationId", c.description, c.platform_id as "platformId",
  c.platform_asset_id as "platformAssetId", c.external_campaign_id as "externalCampaignId",
  c.external_resource_name as "externalResourceName", c.external_name as "externalName",
  c.external_status as "externalStatus", c.external_currency as "externalCurrency",
  c.external_daily_budget_cents as "externalDailyBudgetCents", c.external_lifetime_budget_cents as "externalLifetimeBudgetCents",
  c.external_last_seen_at as "externalLastSeenAt", c.external_last_synced_at as "externalLastSyncedAt",
  c.external_stale_at as "externalStaleAt", c.external_sync_error as "externalSyncError", c.is_active as "isActive",
  c.start_date as "startDate", c.end_date as "endDate", c.budget_cents as "budgetCents", c.pipeline_id as "pipelineId",
  c.webhook_key as "webhookKey", c.redirect_url as "redirectUrl", c.created_at as "createdAt", c.updated_at as "updatedAt"`;

/** Column and record field behind each `sortBy` value: whitelisted, never text from the request. */
const SORT_COLUMNS: Record<CampaignSortField, { column: string; field: keyof CampaignRecord; kind: SortKeyKind; nullable: boolean }> = {
  [CampaignSortField.NAME]: { column: 'name', field: 'name', kind: 'text', nullable: false },
  [CampaignSortField.STARTS_AT]: { column: 'start_date', field: 'startDate', kind: 'date', nullable: true },
  [CampaignSortField.ENDS_AT]: { column: 'end_date', field: 'endDate', kind: 'date', nullable: true },
  [CampaignSortField.BUDGET_CENTS]: { column: 'budget_cents', field: 'budgetCents', kind: 'number', nullable: true },
  [CampaignSortField.CREATED_AT]: { column: 'created_at', field: 'createdAt', kind: 'date', nullable: false },
  [CampaignSortField.UPDATED_AT]: { column: 'updated_at', field: 'updatedAt', kind: 'date', nullable: false },
};

/**
 * The order of a campaign list: the sort column, NULLs last either way (as the list has always
 * sorted), then the id. Fields are the table's columns under the alias `c`, as the page's statement reads them.
 */
export function campaignKeys(query: Pick<CampaignListQuery, 'sortBy' | 'sortDirection'>): SortKey<CampaignRecord>[] {
  const sort = SORT_COLUMNS[query.sortBy];
  const direction = query.sortDirection === SortDirection.ASC ? 'asc' : 'desc';
  return [
    { field: `c.${sort.column}`, direction, kind: sort.kind, nullable: sort.nullable, nullsLast: true, value: (row) => row[sort.field] },
    { field: 'c.id', direction, kind: 'uuid', value: (row) => row.id },
  ];
}

const DATE_FIELDS = ['externalLastSeenAt', 'externalLastSyncedAt', 'externalStaleAt', 'startDate', 'endDate', 'createdAt', 'updatedAt'] as const;

/**
 * Campaigns and their opportunities. Reads with counts are raw SQL because the counts come from
 * one grouped count over the page's campaigns inside the same statement (no N+1, no second trip),
 * which the entity API cannot express; every statement binds the scope's tenant id. Writes go
 * through the Campaign and Opportunity entities. The lead endpoint's lookup by webhook key is the
 * one unscoped read.
 */
export class CampaignRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores a new campaign of the scope's tenant. */
  async create(fields: Record<string, unknown>): Promise<Campaign> {
    const campaign = this.add(fields);
    await this.em.persistAndFlush(campaign);
    return campaign;
  }

  /** A new campaign of the scope's tenant, added to the unit of work: the caller's transaction (or `save`) writes it. */
  add(fields: Record<string, unknown>): Campaign {
    return this.em.create(Campaign, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** A new opportunity (lead) of the scope's tenant, added to the unit of work like `add`. */
  addOpportunity(fields: Record<string, unknown>): Opportunity {
    return this.em.create(Opportunity, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** Writes what was added or changed through this entity manager (in the caller's transaction). */
  async save(): Promise<void> {
    await this.em.flush();
  }

  /** The campaign entity for a write, in this entity manager's unit of work, or null (unknown, malformed and other tenants' ids alike). */
  loadForUpdate(id: string): Promise<Campaign | null> {
    const key = storedId(id);
    return key ? this.em.findOne(Campaign, { id: key, tenantId: this.scope.tenantId }) : Promise.resolve(null);
  }

  /**
   * The campaign holding this webhook key, of any tenant: the lead endpoint has no API key, the key
   * in its URL is the secret (contract part 6.1), and the lead is then written in the campaign's tenant.
   */
  static findByWebhookKeyUnscoped(em: EntityManager, webhookKey: string): Promise<Campaign | null> {
    return em.findOne(Campaign, { webhookKey }, { filters: false });
  }

  /** The tenant's campaign with counts, or null (unknown, malformed and other tenants' ids alike). */
  async findById(id: string): Promise<CampaignRecord | null> {
    const key = storedId(id);
    if (!key) return null;
    const [row] = await this.select('c.id = ?', [key], 'c.id', 1, 0);
    return row ?? null;
  }

  /** One window of campaigns with counts, and the total of the list, read on `connection`. */
  list(query: CampaignListQuery, window: ListWindow, connection: ReadConnection = 'write'): Promise<ListSlice<CampaignRecord>> {
    const filters: [string, unknown][] = [];
    if (query.locationId != null) filters.push(['c.location_id = ?', query.locationId]);
    if (query.isActive != null) filters.push(['c.is_active = ?', query.isActive]);
    if (query.name) filters.push(['c.name ilike ?', `%${escapeLike(query.name)}%`]);
    const conditions = filters.map(([sql]) => sql);
    const params = filters.map(([, value]) => value);
    const keys = campaignKeys(query);
    const where = conditions.join(' and ') || 'true';
    return readSlice(
      window,
      keys,
      (slice) => {
        const sliceParams = [...params];
        const keyset = slice.conditions.map((term) => sqlCondition(term, sliceParams));
        return this.select([where, ...keyset].join(' and '), sliceParams, sqlOrder(keys as SortKey<never>[], slice.reverse), slice.limit, slice.offset, connection);
      },
      async () => {
        const [counted] = await this.em.getConnection(connection).execute<{ total: string }[]>(`select count(*) as total from analytics.campaigns c where c.tenant_id = ? and ${where}`, [this.scope.tenantId, ...params]);
        return Number(counted.total);
      },
    );
  }

  /** Campaigns matching `condition` (over `c`) in `order` (over `c`), with their opportunity counts, in one statement on `connection`. */
  private async select(condition: string, params: unknown[], order: string, limit: number, offset: number, connection: ReadConnection = 'write'): Promise<CampaignRecord[]> {
    const sql = `with page as (
        select ${COLUMNS}, row_number() over (order by ${order}) as position
        from analytics.campaigns c
        where c.tenant_id = ? and ${condition}
        order by ${order}
        limit ? offset ?
      ), counts as (
        select o.campaign_id, count(*) as opportunities, count(*) filter (where o.status = 'CONVERTED') as converted
        from analytics.opportunities o
        where o.tenant_id = ? and o.campaign_id in (select id from page)
        group by o.campaign_id
      )
      select page.*, coalesce(counts.opportunities, 0) as "opportunityCount", coalesce(counts.converted, 0) as "convertedCount"
      from page left join counts on counts.campaign_id = page.id
      order by page.position`;
    const rows = await this.em.getConnection(connection).execute<Record<string, any>[]>(sql, [this.scope.tenantId, ...params, limit, offset, this.scope.tenantId]);
    return rows.map((row) => {
      // The driver hands timestamptz and bigint back as text; records carry Dates and numbers like the entity.
      for (const field of DATE_FIELDS) if (row[field] != null) row[field] = new Date(row[field]);
      const { position: _position, ...record } = row;
      return { ...record, opportunityCount: Number(row.opportunityCount), convertedCount: Number(row.convertedCount) } as CampaignRecord;
    });
  }
}
