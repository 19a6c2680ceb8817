import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { checkIntRange, Issues, type IssueLoc } from '../../common/field-rules';
import { ChargeItem, SoldPackage } from '../entities/revenue-line.entity';
import type { RecordChargeItemInput, RecordSoldPackageInput } from '../inputs/revenue.input';
import { DirectoryRepository, patientName } from '../repositories/directory.repository';
import { RevenueRepository } from '../repositories/revenue.repository';
import type { ChargeItemView, RevenueLineView, SoldPackageView } from '../types/revenue.type';
import type { PaymentMedium, RevenueItemType } from '../types/enums';
import { cents, MAX_NOTE, optionalString, requiredText, unknownReference } from './rules';

/** Largest single line: 1,000,000.00 in cents. */
const MAX_LINE_CENTS = 100_000_000;

type LineInput = Pick<RecordChargeItemInput, 'locationId' | 'providerId' | 'patientId' | 'itemCategory' | 'paymentMedium' | 'grossCents' | 'discountCents' | 'comment'>;

/** The view of a stored line (no re-read). */
function toView(line: ChargeItem | SoldPackage): RevenueLineView {
  return {
    id: line.id,
    locationId: line.locationId,
    locationName: line.locationName,
    providerId: line.providerId,
    providerName: line.providerName,
    patientId: line.patientId,
    patientName: line.patientName,
    itemCategory: line.itemCategory,
    itemType: line.itemType as RevenueItemType,
    itemName: line.itemName,
    paymentMedium: line.paymentMedium as PaymentMedium,
    grossCents: line.grossCents,
    discountCents: line.discountCents,
    netCents: line.netCents,
    comment: line.comment,
    createdDate: line.createdAt,
  };
}

/** Revenue lines: charge items and sold packages, the rows behind `billing.revenue_line`. */
export class RevenueService {
  /** `audit`: the request's side of the audit trail (ctx.audit), which every line recorded writes to. */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {}

  /** Records a product or service sale, with its audit record in the same transaction. */
  async recordChargeItem(input: RecordChargeItemInput): Promise<ChargeItemView> {
    const issues = new Issues();
    const common = await this.checkLine(issues, input);
    const itemName = requiredText(issues, ['input', 'itemName'], input.itemName);
    issues.throwIfAny();
    const line = await this.em.transactional(async (tx) => {
      const created = await new RevenueRepository(tx, this.scope).create(ChargeItem, { ...common, itemType: input.itemType, itemName });
      await this.audit.change(tx, 'charge_item.record', 'charge_item', [created.id]);
      return created;
    });
    return toView(line);
  }

  /** Records a package sale (item_type `package`), with its audit record in the same transaction. */
  async recordSoldPackage(input: RecordSoldPackageInput): Promise<SoldPackageView> {
    const issues = new Issues();
    const common = await this.checkLine(issues, input);
    const itemName = requiredText(issues, ['input', 'packageName'], input.packageName);
    if (input.sessionCount != null) checkIntRange(issues, ['input', 'sessionCount'], input.sessionCount, 1, 1000);
    issues.throwIfAny();
    const line = await this.em.transactional(async (tx) => {
      const created = await new RevenueRepository(tx, this.scope).create(SoldPackage, { ...common, itemType: 'package', itemName, sessionCount: input.sessionCount ?? null });
      await this.audit.change(tx, 'sold_package.record', 'sold_package', [created.id]);
      return created;
    });
    return { ...toView(line), sessionCount: line.sessionCount };
  }

  /** The fields both kinds share, with names snapshotted from the directory (one lookup per kind of id). */
  private async checkLine(issues: Issues, input: LineInput) {
    const directory = new DirectoryRepository(this.em, this.scope);
    const [locations, providers, patients] = await Promise.all([
      directory.locations([input.locationId]),
      directory.providers([input.providerId]),
      directory.patients([input.patientId]),
    ]);
    const find = <T>(found: Map<string, T>, loc: IssueLoc, what: string, id: string | null | undefined): T | null => {
      if (id == null) return null;
      const hit = found.get(id.toLowerCase());
      if (!hit) unknownReference(issues, loc, what, id);
      return hit ?? null;
    };
    const location = find(locations, ['input', 'locationId'], 'location', input.locationId);
    const provider = find(providers, ['input', 'providerId'], 'provider', input.providerId);
    const patient = find(patients, ['input', 'patientId'], 'patient', input.patientId);
    const itemCategory = requiredText(issues, ['input', 'itemCategory'], input.itemCategory);
    const grossCents = cents(issues, ['input', 'grossCents'], input.grossCents, 0, MAX_LINE_CENTS);
    const discountCents = cents(issues, ['input', 'discountCents'], input.discountCents, 0, MAX_LINE_CENTS);
    if (discountCents > grossCents && grossCents >= 0 && discountCents <= MAX_LINE_CENTS) issues.value(['input', 'discountCents'], 'discountCents must not exceed grossCents', input.discountCents);
    const comment = optionalString(issues, ['input', 'comment'], input.comment, MAX_NOTE);
    return {
      locationId: location?.id,
      locationName: location?.name,
      providerId: provider?.id ?? null,
      providerName: provider?.name ?? null,
      patientId: patient?.id ?? null,
      patientName: patient ? patientName(patient) : null,
      itemCategory,
      paymentMedium: input.paymentMedium,
      grossCents,
      discountCents,
      netCents: grossCents - discountCents,
      comment,
    };
  }
}
