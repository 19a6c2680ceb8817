import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { requireScope } from '../../common/require-tenant';
import { CreatePaymentMethodInput } from '../inputs/payment-method.input';
import { requestLoader } from '../../common/request-loader';
import { PaymentMethodService } from '../services/payment-method.service';
import { PatientRef } from '../types/directory-refs.type';
import { PaymentMethodView } from '../types/payment-method.type';

const service = (ctx: SubgraphContext) => new PaymentMethodService(ctx.em, requireScope(ctx), ctx.audit);

/** Payment methods (contract part 4.4): creation, and `Patient.paymentMethods` by federation. */
@Resolver(() => PatientRef)
export class PaymentMethodResolver {
  @Mutation(() => PaymentMethodView, { description: 'Adds a tokenised payment method to a patient; the same fingerprint returns the existing one' })
  createPatientPaymentMethod(
    @Arg('patientId', () => ID) patientId: string,
    @Arg('input', () => CreatePaymentMethodInput) input: CreatePaymentMethodInput,
    @Ctx() ctx: SubgraphContext,
  ): Promise<PaymentMethodView> {
    return service(ctx).create(patientId, input);
  }

  @FieldResolver(() => [PaymentMethodView], { description: "The patient's payment methods, default first" })
  async paymentMethods(
    @Root() patient: PatientRef,
    @Arg('includeArchived', () => Boolean, { defaultValue: false }) includeArchived: boolean,
    @Ctx() ctx: SubgraphContext,
  ): Promise<PaymentMethodView[]> {
    // Every patient of one `_entities` fetch joins one statement; an id that cannot exist has no methods (the repository drops it).
    const methods = await requestLoader(ctx, `paymentMethods:${includeArchived}`, (ids) => service(ctx).ofPatients(ids, includeArchived)).load(String(patient.id).toLowerCase());
    return methods ?? [];
  }
}
