import type { SubgraphContext } from '../common/context';
import type { PaymentProcessor } from './processor/payment-processor';
import { SandboxPaymentProcessor } from './processor/sandbox.processor';

/** Billing's collaborators, built once per running subgraph (SubgraphDefinition.configure). */
export interface BillingDeps {
  /** Where charges and merchant account openings go; the sandbox until an integration is configured. */
  processor: PaymentProcessor;
}

/** The resolver context of the billing subgraph. */
export type BillingContext = SubgraphContext<BillingDeps>;

/** Billing's collaborators for this running copy: the built-in sandbox processor (docs/api.md lists its test values). */
export function configureBilling(): BillingDeps {
  return { processor: new SandboxPaymentProcessor() };
}
