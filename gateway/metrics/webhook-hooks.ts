import type { DeliveryHooks } from '../../subgraphs/tenant';
import { webhookAttempts, webhookDeliveryLag } from './instruments';

/** Counts the delivery attempts of the webhook workers this process runs (docs/metrics.md). */
export const webhookMetricsHooks: DeliveryHooks = {
  attempted(outcome, lagSeconds) {
    webhookAttempts.inc({ outcome });
    if (lagSeconds !== null) webhookDeliveryLag.observe(lagSeconds);
  },
};
