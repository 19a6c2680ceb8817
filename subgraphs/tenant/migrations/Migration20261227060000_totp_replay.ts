import { Migration } from '@mikro-orm/migrations';

/** The last TOTP time step a person signed in with: a code is accepted once (RFC 6238, section 5.2). */
export class Migration20261227060000_totp_replay extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "tenant"."users" add column "totp_last_step" bigint null;`);
  }

  async down(): Promise<void> {
    this.addSql(`alter table "tenant"."users" drop column "totp_last_step";`);
  }
}
