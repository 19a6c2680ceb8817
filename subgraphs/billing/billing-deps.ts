import type { SubgraphContext } from '../../platform/context';
import { DEFAULT_DAILY_LIMIT, type MailSettings } from '../common/mail/mail-settings';
import type { PaymentProcessor } from './processor/payment-processor';
import { SandboxPaymentProcessor } from './processor/sandbox.processor';

/** Billing's collaborators, built once per running subgraph (SubgraphDefinition.configure). */
export interface BillingDeps {
  /** Where live tenants' charges and merchant account openings go; the sandbox until an integration is configured. */
  processor: PaymentProcessor;
  /**
   * Where test twins' charges and openings go (docs/api.md, Test mode): always the built-in sandbox,
   * whatever `processor` is, so nothing a test key does reaches live money.
   */
  testProcessor: PaymentProcessor;
  /** Notification e-mails one tenant may queue in any 24 hours (NOTIFICATION_DAILY_LIMIT). */
  notificationDailyLimit: number;
}

/** The resolver context of the billing subgraph. */
export type BillingContext = SubgraphContext<BillingDeps>;

/** Billing's collaborators for this running copy: the built-in sandbox processor (docs/api.md lists its test values) for both modes, and the e-mail cap. */
export function configureBilling(settings: MailSettings | null): BillingDeps {
  return { processor: new SandboxPaymentProcessor(), testProcessor: new SandboxPaymentProcessor(), notificationDailyLimit: settings?.dailyLimitPerTenant ?? DEFAULT_DAILY_LIMIT };
}
