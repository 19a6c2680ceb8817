import type { BillingContext } from '../billing-deps';
import { requireScope } from '../../common/require-tenant';
import { DirectoryRepository } from '../repositories/directory.repository';
import type { ChargeRequest, ChargeResult, OpenAccountRequest, PaymentProcessor } from './payment-processor';

/**
 * The processor of the request's tenant's mode (docs/decisions.md, Test mode): the live one for a
 * live tenant, the sandbox for a test twin. The mode is read from the tenant's stored row (the
 * `tenant_mode_directory` view) when a call is made, not from anything the request carries, and
 * anything but a confirmed live tenant goes to the sandbox.
 */
class ModeProcessor implements PaymentProcessor {
  constructor(private readonly live: PaymentProcessor, private readonly test: PaymentProcessor, private readonly directory: DirectoryRepository) {}

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    return (await this.pick()).charge(request);
  }

  async createMerchantAccount(request: OpenAccountRequest): Promise<{ accountId: string }> {
    return (await this.pick()).createMerchantAccount(request);
  }

  private async pick(): Promise<PaymentProcessor> {
    return (await this.directory.livemode()) ? this.live : this.test;
  }
}

/** The payment processor billing's services use for this request: by its tenant's mode. */
export function processorOf(ctx: BillingContext): PaymentProcessor {
  return new ModeProcessor(ctx.deps.processor, ctx.deps.testProcessor, new DirectoryRepository(ctx.em, requireScope(ctx)));
}
