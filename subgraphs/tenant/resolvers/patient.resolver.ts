import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import { CreatePatientInput } from '../inputs/create-patient.input';
import { PatientService } from '../services/patient.service';
import { PatientConnection, PatientListArgs, PatientType } from '../types/patient.type';

/** The tenant's patients. */
@Resolver(() => PatientType)
export class PatientResolver {
  @Query(() => PatientConnection, { description: "The tenant's patients by last, then first name" })
  patients(@Args() args: PatientListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<PatientType>> {
    return new PatientService(ctx.em, requireScope(ctx), ctx.audit).list(args);
  }

  @Query(() => PatientType, {
    nullable: true,
    description: 'One patient; null with a NOT_FOUND error for an unknown id',
  })
  patient(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<PatientType> {
    return new PatientService(ctx.em, requireScope(ctx), ctx.audit).get(id);
  }

  @Mutation(() => PatientType, { description: 'Adds a patient' })
  createPatient(@Arg('input', () => CreatePatientInput) input: CreatePatientInput, @Ctx() ctx: SubgraphContext): Promise<PatientType> {
    return new PatientService(ctx.em, requireScope(ctx), ctx.audit).create(input);
  }
}
