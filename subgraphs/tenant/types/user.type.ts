import { DateTimeISOResolver } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionArgs, ConnectionType } from '../../common/connection';
import { ALL_ROLES, type Role } from '../../../schema/roles';
import type { User, UserStatus } from '../entities/user.entity';
import { graphEnum } from '../../common/graph-enum';

/** A person's role (docs/access.md, People and roles). */
export const UserRole = graphEnum<Role>(ALL_ROLES);
registerEnumType(UserRole, { name: 'UserRole', description: 'OWNER and ADMIN: every scope; ANALYST, BILLING, CLINICIAN: the scopes docs/access.md lists' });

/** Where a person stands. */
export const UserStatusValue = graphEnum(['invited', 'active'] as const);
registerEnumType(UserStatusValue, { name: 'UserStatus', description: 'INVITED (no password yet) or ACTIVE' });

/** A person of the calling tenant. */
@ObjectType('User', { description: 'A person of the tenant, signed in with e-mail and password' })
export class UserType {
  @Field(() => ID)
  id!: string;

  @Field()
  email!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => UserRole)
  role!: Role;

  @Field(() => UserStatusValue)
  status!: Exclude<UserStatus, 'removed'>;

  @Field({ description: 'Whether they sign in with a second factor (TOTP)' })
  twoFactorEnabled!: boolean;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;
}

/** The view of a stored person. */
export function toUserView(user: User): UserType {
  return { id: user.id, email: user.email, name: user.name, role: user.role as Role, status: user.status as 'invited' | 'active', twoFactorEnabled: user.totpSecret !== null, createdAt: user.createdAt };
}

/** Users as a Relay connection (docs/api.md, "Pagination"). */
@ObjectType('UserConnection')
export class UserConnection extends ConnectionType(UserType, 'User') {}

/** Page of `users`. */
@ArgsType()
export class UserListArgs extends ConnectionArgs {}

/** `inviteUser`. */
@InputType('InviteUserInput', { description: 'A person to invite: their e-mail address, role and (optionally) name' })
export class InviteUserInput {
  @Field()
  email!: string;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => UserRole)
  role!: Role;
}

/** A person invited, with the invitation's one-time token (shown once: send it to them). */
@ObjectType('InvitedUser', { description: 'A person just invited, with the one-time token of their invitation' })
export class InvitedUserType {
  @Field(() => UserType)
  user!: UserType;

  @Field({ description: 'Accepted once at POST /auth/invitations/accept with a password (the e-mailed link opens the console\'s page for it); never shown again' })
  invitationToken!: string;

  @Field({ description: 'Whether the invitation was e-mailed to the person (SMTP_URL, or an .eml file under DATA_DIR/mail without it); when not, hand them the token' })
  invitationSent!: boolean;

  @Field(() => DateTimeISOResolver)
  expiresAt!: Date;
}
