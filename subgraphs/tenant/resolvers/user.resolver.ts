import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { TenantContext } from '../tenant-deps';
import { toConnection, type Connection } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import { requireScope } from '../../common/require-tenant';
import { USER_KEYS } from '../repositories/user.repository';
import { PeopleService } from '../services/people.service';
import { SignInRulesService } from '../services/sign-in-rules.service';
import { ConfigureSingleSignOnInput } from '../inputs/configure-single-sign-on.input';
import { InvitedUserType, InviteUserInput, toUserView, UserConnection, UserListArgs, UserRole, UserType } from '../types/user.type';
import type { Role } from '../../../schema/roles';

/** The tenant's people: invitations, roles, removal (scope `users:manage`, checked at the gateway). */
@Resolver()
export class UserResolver {
  @Query(() => UserConnection, { description: "The tenant's people (invited and active), by e-mail" })
  async users(@Args() args: UserListArgs, @Ctx() ctx: TenantContext): Promise<Connection<UserType>> {
    const slice = await this.people(ctx).list(listWindow(args, USER_KEYS));
    return toConnection(slice, keyValues(USER_KEYS), toUserView);
  }

  @Mutation(() => InvitedUserType, { description: 'Invites a person by e-mail with a role; the answer holds the one-time invitation token' })
  async inviteUser(@Arg('input', () => InviteUserInput) input: InviteUserInput, @Ctx() ctx: TenantContext): Promise<InvitedUserType> {
    const invited = await this.people(ctx).invite(input.email, input.name ?? null, input.role);
    return { user: toUserView(invited.user), invitationToken: invited.invitationToken, expiresAt: invited.expiresAt, invitationSent: invited.mailed };
  }

  @Mutation(() => UserType, { description: "Gives a person another role; their sessions end so it applies at once" })
  async changeUserRole(@Arg('id', () => ID) id: string, @Arg('role', () => UserRole) role: Role, @Ctx() ctx: TenantContext): Promise<UserType> {
    return toUserView(await this.people(ctx).changeRole(id, role));
  }

  @Mutation(() => ID, { description: 'Removes a person: their sessions end at once and they can no longer sign in' })
  async removeUser(@Arg('id', () => ID) id: string, @Ctx() ctx: TenantContext): Promise<string> {
    return (await this.people(ctx).remove(id)).id;
  }

  @Mutation(() => Boolean, { description: 'Whether people must sign in with a second factor (TOTP); those without one may then only enrol it' })
  setTwoFactorRequired(@Arg('required') required: boolean, @Ctx() ctx: TenantContext): Promise<boolean> {
    return this.rules(ctx).setTwoFactorRequired(required);
  }

  @Mutation(() => [String], { description: "Replaces the web origins (https://host[:port]) whose pages may call the API with a person's bearer session" })
  setAllowedOrigins(@Arg('origins', () => [String]) origins: string[], @Ctx() ctx: TenantContext): Promise<string[]> {
    return this.rules(ctx).setAllowedOrigins(origins);
  }

  @Mutation(() => Boolean, { description: "Lets people sign in through the tenant's OpenID Connect provider (GET /auth/sso/start?tenant=<id>)" })
  configureSingleSignOn(@Arg('input', () => ConfigureSingleSignOnInput) input: ConfigureSingleSignOnInput, @Ctx() ctx: TenantContext): Promise<boolean> {
    return this.rules(ctx).configureSingleSignOn(input.issuer, input.clientId, input.clientSecret);
  }

  @Mutation(() => Boolean, { description: "Turns single sign-on off and forgets the provider's client secret" })
  disableSingleSignOn(@Ctx() ctx: TenantContext): Promise<boolean> {
    return this.rules(ctx).disableSingleSignOn();
  }

  private rules(ctx: TenantContext): SignInRulesService {
    return new SignInRulesService(ctx.em, requireScope(ctx), ctx.audit);
  }

  private people(ctx: TenantContext): PeopleService {
    return new PeopleService(ctx.em, requireScope(ctx), ctx.audit, ctx.actor ?? null, { mail: ctx.deps.mail, publicUrl: ctx.publicUrl, log: ctx.deps.log });
  }
}
