import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { NotFoundError } from '../../../schema/errors';
import { Issues } from '../../common/field-rules';
import type { Connection } from '../../common/connection';
import { listWindow } from '../../common/list-window';
import type { CreateMemberInput } from '../inputs/member.input';
import { DirectoryRepository } from '../repositories/directory.repository';
import { MEMBER_KEYS, MemberRepository } from '../repositories/member.repository';
import type { MemberStatus } from '../types/enums';
import type { MemberListArgs, MemberView } from '../types/member.type';
import { cents, requiredText, unknownReference } from './rules';

/** Largest price or balance: 1,000,000.00 in cents. */
const MAX_CENTS = 100_000_000;

/** Members: patients holding a membership plan. Each names a patient: every read and change leaves an audit record (docs/audit.md). */
export class MemberService {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {}

  /** Adds a member, with its audit record in the same transaction; the patient must be the tenant's (another tenant's reads as unknown). */
  async create(input: CreateMemberInput): Promise<MemberView> {
    const issues = new Issues();
    const patients = await new DirectoryRepository(this.em, this.scope).patients([input.patientId]);
    const patientId = input.patientId.toLowerCase();
    if (!patients.has(patientId)) unknownReference(issues, ['input', 'patientId'], 'patient', input.patientId);
    const planName = requiredText(issues, ['input', 'planName'], input.planName);
    const priceCents = cents(issues, ['input', 'priceCents'], input.priceCents, 0, MAX_CENTS);
    const balanceDueCents = cents(issues, ['input', 'balanceDueCents'], input.balanceDueCents, 0, MAX_CENTS);
    issues.throwIfAny();
    const member = await this.em.transactional(async (tx) => {
      const [created] = await new MemberRepository(tx, this.scope).create([{ patientId, planName, priceCents, interval: input.interval, status: input.status, balanceDueCents }]);
      await this.audit.change(tx, 'member.create', 'member', [created.id]);
      return created;
    });
    return { id: member.id, patientId, planName, priceCents, interval: input.interval, status: input.status, balanceDueCents, createdAt: member.createdAt, updatedAt: member.updatedAt, payments: [] };
  }

  /** One member with payments; unknown and other tenants' ids are the same 404. */
  async get(id: string): Promise<MemberView> {
    const member = await new MemberRepository(this.em, this.scope).findById(id);
    if (!member) throw new NotFoundError('Member not found');
    this.audit.read('member', [member.id]);
    return member;
  }

  /** One window of members, newest first. */
  async list(args: MemberListArgs): Promise<Connection<MemberView>> {
    const members = await new MemberRepository(this.em, this.scope).list((args.status as MemberStatus | null) ?? null, listWindow(args, MEMBER_KEYS));
    this.audit.read('member', members.nodes.map((member) => member.id));
    return members;
  }
}
