import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/tenant-scope';
import { DirectoryRepository, patientName, type DirectoryLocation, type DirectoryName, type DirectoryPatient } from './repositories/directory.repository';
import { GiftCardRepository } from './repositories/gift-card.repository';
import { MemberRepository } from './repositories/member.repository';
import { MerchantAccountRepository } from './repositories/merchant-account.repository';
import { PaymentMethodRepository } from './repositories/payment-method.repository';
import { RevenueRepository, type RevenueLineRow } from './repositories/revenue.repository';
import { CATALOGUE, PACKAGES, PAYMENT_MEDIUMS, PLANS, prng, weighted } from './seed-data';
import { newGiftCardCode } from './services/gift-card-code';
import { ChargeItem, SoldPackage } from './entities/revenue-line.entity';

const DAY = 86_400_000;
/** Days of history: two years. */
const HISTORY_DAYS = 730;

/** Two years of sales over the directory: more on weekdays, growing over time, none on Sundays. */
function revenueLines(now: number, locations: DirectoryLocation[], providers: DirectoryName[], patients: DirectoryPatient[], random: () => number) {
  const charges: RevenueLineRow[] = [];
  const packages: RevenueLineRow[] = [];
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const medium = () => weighted(PAYMENT_MEDIUMS, ([, w]) => w, random())[0];
  const today = Math.floor(now / DAY) * DAY;
  for (let day = HISTORY_DAYS; day >= 1; day--) {
    const date = today - day * DAY;
    const weekday = new Date(date).getUTCDay();
    if (weekday === 0) continue;
    const growth = 0.7 + (0.6 * (HISTORY_DAYS - day)) / HISTORY_DAYS;
    const count = Math.round((weekday === 6 ? 2 : 5) * growth + random() * 2);
    for (let i = 0; i < count; i++) {
      const location = pick(locations);
      const items = CATALOGUE.filter((item) => Boolean(item.virtual) === location.isVirtual);
      const patient = random() < 0.9 ? pick(patients) : undefined;
      const provider = providers.length ? pick(providers) : undefined;
      // Clinic hours, 08:00-18:00 US Pacific (16:00-02:00 UTC).
      const createdAt = new Date(date + (16 + random() * 10) * 3_600_000);
      const base = {
        locationId: location.id,
        locationName: location.name,
        providerId: provider?.id ?? null,
        providerName: provider?.name ?? null,
        patientId: patient?.id ?? null,
        patientName: patient ? patientName(patient) : null,
        paymentMedium: medium(),
        comment: null,
        createdAt,
      };
      if (!location.isVirtual && random() < 0.07) {
        const pack = weighted(PACKAGES, (p) => p.weight, random());
        const discountCents = random() < 0.3 ? Math.round(pack.cents * 0.05) : 0;
        packages.push({ ...base, id: randomUUID(), itemCategory: 'Packages', itemType: 'package', itemName: pack.name, grossCents: pack.cents, discountCents, sessionCount: pack.sessions });
        continue;
      }
      if (!items.length) continue;
      const item = weighted(items, (it) => it.weight, random());
      const discounted = random() < 0.15;
      const discountCents = discounted ? Math.round(item.cents * (random() < 0.5 ? 0.1 : 0.2)) : 0;
      charges.push({ ...base, id: randomUUID(), itemCategory: item.category, itemType: item.type, itemName: item.name, grossCents: item.cents, discountCents, comment: discounted ? 'Loyalty discount' : null });
    }
  }
  return { charges, packages };
}

/**
 * Demo billing data for a new tenant, over the directory the tenant seeder created just before
 * (SUBGRAPHS order: tenant, then billing): two years of revenue lines (a few thousand), payment
 * methods with the sandbox's test values, gift cards, a default merchant account and members.
 * Runs in the caller's transaction; writes no outbox events (this is history, not news).
 */
export async function seedBillingDemo(em: EntityManager, scope: TenantScope): Promise<void> {
  const { locations, providers, patients } = await new DirectoryRepository(em, scope).everything();
  if (!locations.length || !patients.length) return;
  const random = prng(0x5eed);
  const { charges, packages } = revenueLines(Date.now(), locations, providers, patients, random);
  const revenue = new RevenueRepository(em, scope);
  await revenue.insertMany(ChargeItem, charges);
  await revenue.insertMany(SoldPackage, packages);

  // Cards ending 4242 succeed in the sandbox; 0002 declines (docs/api.md: sandbox test values).
  const methods = new PaymentMethodRepository(em, scope);
  patients.slice(0, 6).forEach((patient, i) =>
    methods.add({
      patientId: patient.id,
      isDefault: true,
      processorPaymentMethodId: `pm_demo_${i}_${randomUUID().slice(0, 8)}`,
      fingerprint: `fp_demo_${i}`,
      ...(i === 3
        ? { type: 'ACH', last4: '6789', accountHolderType: 'individual', accountNumberLast4: '6789', bankName: 'Cascade Credit Union', routingNumber: '110000000', description: 'Cascade Credit Union account ending in 6789' }
        : i === 4
          ? { type: 'WALLET_PAY', walletType: 'apple_pay', brand: 'visa', last4: '4242', expMonth: 8, expYear: new Date().getUTCFullYear() + 3, description: 'Apple Pay (visa ending in 4242)' }
          : { type: 'CARD', brand: i === 1 ? 'mastercard' : 'visa', last4: i === 2 ? '0002' : '4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, description: `${i === 1 ? 'mastercard' : 'visa'} ending in ${i === 2 ? '0002' : '4242'}` }),
    }),
  );
  await methods.save();
  await new MemberRepository(em, scope).create([
    ...PLANS.map((plan, i) => ({ patientId: patients[i].id, ...plan, status: i === 0 ? 'PAST_DUE' : 'ACTIVE', balanceDueCents: i === 0 ? plan.priceCents : 0 })),
    { patientId: patients[6 % patients.length].id, ...PLANS[0], status: 'CANCELLED', balanceDueCents: 0 },
  ]);

  const accounts = new MerchantAccountRepository(em, scope);
  const physical = locations.filter((l) => !l.isVirtual).map((l) => l.id);
  const fees = { cardProcessingFee: 2.9, perTransactionFee: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFee: 10 };
  // Random like the sandbox's own: a processor id is one tenant's, and a derived one could be taken first.
  const sandboxId = () => `acct_sandbox_${randomBytes(8).toString('hex')}`;
  await accounts.insert({ id: randomUUID(), processorAccountId: sandboxId(), name: 'Clinic payments', isDefault: true, ...fees, locationIds: physical });
  const virtual = locations.filter((l) => l.isVirtual).map((l) => l.id);
  if (virtual.length) await accounts.insert({ id: randomUUID(), processorAccountId: sandboxId(), name: 'Telehealth payments', isDefault: false, ...fees, locationIds: virtual });

  const cards = new GiftCardRepository(em, scope);
  const gifts = [5_000, 10_000, 2_500, 15_000];
  for (const [i, value] of gifts.entries()) {
    const buyer = patients[(i + 7) % patients.length];
    const recipient = patients[(i + 11) % patients.length];
    const card = await cards.insert({
      id: randomUUID(), code: newGiftCardCode(), initialValue: value,
      purchasingPatientId: buyer.id, purchasingPatientName: patientName(buyer), purchasingPatientEmail: buyer.email, purchasingPatientPhone: buyer.phone,
      recipientPatientId: recipient.id, recipientPatientName: patientName(recipient), recipientPatientEmail: recipient.email ?? 'gift@example.com', recipientPatientPhone: recipient.phone,
      recipientNote: i === 0 ? 'Happy birthday! Treat yourself to a massage.' : null, chargeItemId: null, scheduledSendDate: null, suppressRecipientNotification: i === 3,
    });
    // The first two were activated (and mailed) long ago; the others wait at the front desk.
    if (card && i < 2) {
      const active = await cards.activate(card.id);
      if (active) await cards.addTransaction(card.id, randomUUID(), 'ACTIVATION', active.initialValueCents, active.currentBalanceCents);
    }
  }
}
