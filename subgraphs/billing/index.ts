import { createHealthResolver } from '../common/health.resolver';
import { migration } from '../../platform/orm';
import { outboxMigration } from '../common/outbox/outbox.migration';
import type { SubgraphDefinition } from '../../platform/subgraph-definition';
import { LocationDirectoryEntry, PatientDirectoryEntry, ProviderDirectoryEntry, TenantModeEntry } from './entities/directory-entry.entity';
import { GiftCardTransaction } from './entities/gift-card-transaction.entity';
import { GiftCard } from './entities/gift-card.entity';
import { MemberPayment } from './entities/member-payment.entity';
import { Member } from './entities/member.entity';
import { MerchantAccountLocation } from './entities/merchant-account-location.entity';
import { MerchantAccount } from './entities/merchant-account.entity';
import { Notification } from './entities/notification.entity';
import { PaymentMethod } from './entities/payment-method.entity';
import { ChargeItem, SoldPackage } from './entities/revenue-line.entity';
import { Migration20261203000100_payments } from './migrations/Migration20261203000100_payments';
import { Migration20261203000200_gift_cards } from './migrations/Migration20261203000200_gift_cards';
import { Migration20261203000300_revenue } from './migrations/Migration20261203000300_revenue';
import { Migration20261205000000_revenue_indexes } from './migrations/Migration20261205000000_revenue_indexes';
import { Migration20261206000000_member_payment_pending } from './migrations/Migration20261206000000_member_payment_pending';
import { Migration20261207000000_processor_ids_across_tenants } from './migrations/Migration20261207000000_processor_ids_across_tenants';
import { configureBilling, type BillingDeps } from './billing-deps';
import { Migration20261210000000_notification_jobs } from './migrations/Migration20261210000000_notification_jobs';
import { Migration20261215000000_revenue_rollups } from './migrations/Migration20261215000000_revenue_rollups';
import { Migration20261231000000_notification_quota } from './migrations/Migration20261231000000_notification_quota';
import { Migration20270101000000_request_keys } from './migrations/Migration20270101000000_request_keys';
import { startBillingBackground } from './notifications/background';
import { BILLING_QUEUES } from './notifications/email-queue';
import { readMailSettings, type MailSettings } from '../common/mail/mail-settings';
import { resolveLocationReference, resolvePatientReference } from './resolvers/directory.reference';
import { GiftCardResolver } from './resolvers/gift-card.resolver';
import { LocationMerchantAccountsResolver } from './resolvers/location-merchant-accounts.resolver';
import { MemberResolver } from './resolvers/member.resolver';
import { MerchantAccountResolver } from './resolvers/merchant-account.resolver';
import { PaymentMethodResolver } from './resolvers/payment-method.resolver';
import { RevenueResolver } from './resolvers/revenue.resolver';
import { seedBillingDemo } from './seeder';

/**
 * The billing subgraph (docs/decisions.md, Data ownership): payment methods, issued gift cards, merchant
 * accounts, members and manual payments, revenue lines and the `billing.revenue_line` view.
 * Extends the tenant subgraph's `Patient` and `Location` by federation and reads its directory
 * only through the `tenant.*_directory` views.
 */
export const billingSubgraph: SubgraphDefinition<MailSettings | null, BillingDeps> = {
  name: 'billing',
  schema: 'billing',
  entities: [
    PaymentMethod, MerchantAccount, MerchantAccountLocation, Member, MemberPayment, GiftCard, GiftCardTransaction, Notification, ChargeItem, SoldPackage,
    // The tenant subgraph's published directory views, read-only.
    PatientDirectoryEntry, LocationDirectoryEntry, ProviderDirectoryEntry, TenantModeEntry,
  ],
  migrations: [
    migration('Migration20261203000000_outbox', outboxMigration('billing')),
    migration('Migration20261203000100_payments', Migration20261203000100_payments),
    migration('Migration20261203000200_gift_cards', Migration20261203000200_gift_cards),
    migration('Migration20261203000300_revenue', Migration20261203000300_revenue),
    migration('Migration20261205000000_revenue_indexes', Migration20261205000000_revenue_indexes),
    migration('Migration20261206000000_member_payment_pending', Migration20261206000000_member_payment_pending),
    migration('Migration20261207000000_processor_ids_across_tenants', Migration20261207000000_processor_ids_across_tenants),
    migration('Migration20261210000000_notification_jobs', Migration20261210000000_notification_jobs),
    migration('Migration20261215000000_revenue_rollups', Migration20261215000000_revenue_rollups),
    migration('Migration20261231000000_notification_quota', Migration20261231000000_notification_quota),
    migration('Migration20270101000000_request_keys', Migration20270101000000_request_keys),
  ],
  resolvers: [PaymentMethodResolver, GiftCardResolver, MerchantAccountResolver, LocationMerchantAccountsResolver, MemberResolver, RevenueResolver, createHealthResolver('billing')],
  referenceResolvers: {
    Patient: { __resolveReference: resolvePatientReference },
    Location: { __resolveReference: resolveLocationReference },
  },
  seedDemo: seedBillingDemo,
  startBackground: startBillingBackground,
  jobQueues: BILLING_QUEUES,
  // SMTP_URL, MAIL_FROM, NOTIFICATION_POLL_MS, NOTIFICATION_SENDER, DATA_DIR: how this process sends gift card e-mail;
  // NOTIFICATION_DAILY_LIMIT: how many a tenant may queue in 24 hours.
  readSettings: readMailSettings,
  configure: configureBilling,
};

// The billing subgraph's public face beyond its definition.
export type { BillingDeps } from './billing-deps';
export { ProcessorUnreachableError, type ChargeRequest, type ChargeResult, type OpenAccountRequest, type PaymentProcessor } from './processor/payment-processor';
export { SandboxPaymentProcessor } from './processor/sandbox.processor';
export { countDueNotifications } from './notifications/due-count';
