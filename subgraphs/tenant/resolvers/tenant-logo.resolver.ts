import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { TenantContext } from '../tenant-deps';
import { requireScope } from '../../common/require-tenant';
import { LogoKind, UploadedFileInput } from '../inputs/uploaded-file.input';
import { LOGO_MAX_BYTES } from '../../../schema/upload-limits';
import { LOGO_STORED_SIDE } from '../logo-limits';
import { LogoService } from '../services/logo.service';

/** The tenant's logo and receipt logo. */
@Resolver()
export class TenantLogoResolver {
  @Query(() => String, { nullable: true, description: "Absolute URL of the tenant's logo (or receipt logo), null when none is set" })
  tenantLogo(@Arg('kind', () => LogoKind, { defaultValue: LogoKind.LOGO }) kind: LogoKind, @Ctx() ctx: TenantContext): Promise<string | null> {
    return new LogoService(ctx.em, requireScope(ctx), ctx.publicUrl, ctx.deps.decodes, ctx.audit).url(kind);
  }

  @Mutation(() => String, {
    description: `Stores a logo and returns its absolute URL. PNG, JPEG, WebP or GIF judged by the bytes, at most ${LOGO_MAX_BYTES} bytes; SVG is refused. Stored resized to fit inside ${LOGO_STORED_SIDE}x${LOGO_STORED_SIDE} pixels (never enlarged), re-encoded in its own format, never over ${LOGO_MAX_BYTES} bytes`,
  })
  setTenantLogo(
    @Arg('kind', () => LogoKind, { defaultValue: LogoKind.LOGO }) kind: LogoKind,
    @Arg('file', () => UploadedFileInput) file: UploadedFileInput,
    @Ctx() ctx: TenantContext,
  ): Promise<string> {
    return new LogoService(ctx.em, requireScope(ctx), ctx.publicUrl, ctx.deps.decodes, ctx.audit, ctx.signal).upload(kind, file);
  }
}
