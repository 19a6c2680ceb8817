import 'reflect-metadata';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { DomainError } from '../../schema/errors';
import { loadConfig } from '../config';
import { bootPlatform } from '../database/platform';
import { AdminService } from './admin.service';
import type { KeyLimits } from '../../subgraphs/tenant';

const USAGE = `Usage: npm run admin -- <command>

  create-tenant <name> [--demo]   create a tenant and its first API key (--demo: with demo data)
  issue-key <tenant-id> [--name N] [--scopes a,b] [--expires ISO-TIME] [--test]
                                  issue another API key for a tenant: full, or
                                  restricted to scopes (docs/access.md), expiring;
                                  --test: a test key (hpp_test_...), of the tenant's
                                  test data only (docs/api.md, Test mode)
  list-keys <tenant-id>           list a tenant's keys, live and test (no secrets)
  revoke-key <key-id>             revoke an API key
  invite-user <tenant-id> <email> --role R [--name N]
                                  invite a person (owner, admin, analyst, billing,
                                  clinician); prints the one-time invitation token
  list-users <tenant-id>          list a tenant's people
  set-role <tenant-id> <user-id> --role R   give a person another role (ends their sessions)
  remove-user <tenant-id> <user-id>         remove a person (ends their sessions)
  verify-audit <tenant-id>        check the tenant's audit trail: numbering, links, hashes
                                  (exit 3 when broken; keep the printed head elsewhere)

Reaches DATABASE_URL, or the embedded database under DATA_DIR (a running server's, if there is one).
Keys are printed once; store them in a secret manager.`;

/** `--scopes a,b`, `--expires` and `--test` as a key's limits; an unreadable time is refused by the check the service makes of any expiry. */
function keyLimits(scopes: string | undefined, expires: string | undefined, test: boolean): KeyLimits {
  return {
    scopes: scopes === undefined ? null : scopes.split(',').map((scope) => scope.trim()).filter(Boolean),
    expiresAt: expires === undefined ? null : new Date(expires),
    livemode: !test,
  };
}

/** `npm run admin`: the operator's control plane when no server is running (or beside one). */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { demo: { type: 'boolean' }, name: { type: 'string' }, role: { type: 'string' }, scopes: { type: 'string' }, expires: { type: 'string' }, test: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  const [command, arg, second] = positionals;
  const commands = ['create-tenant', 'issue-key', 'list-keys', 'revoke-key', 'verify-audit', 'invite-user', 'list-users', 'set-role', 'remove-user'];
  const needsSecond = ['invite-user', 'set-role', 'remove-user'].includes(command ?? '');
  if (values.help || !command || !commands.includes(command) || !arg || (needsSecond && !second)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig({ ...process.env, MODE: 'all-in-one' });
  // A command, not a server: no e-mail sender or other background work (a running server's own
  // would otherwise compete with it, and a CLI command would send e-mails with the operator's settings).
  const platform = await bootPlatform(config, pino({ level: 'warn' }), { migrate: true, reuseRunningEmbedded: true, background: false });
  try {
    const admin = new AdminService(platform.tenants, platform.seeders);
    let output: unknown;
    if (command === 'create-tenant') output = await admin.createTenant(arg, values.demo === true);
    else if (command === 'issue-key') output = await admin.issueKey(arg, values.name ?? null, keyLimits(values.scopes, values.expires, values.test === true));
    else if (command === 'list-keys') output = await admin.listKeys(arg);
    else if (command === 'invite-user') output = await admin.people(arg).invite(second!, values.name ?? null, values.role ?? '');
    else if (command === 'list-users') output = await admin.people(arg).list();
    else if (command === 'set-role') output = await admin.people(arg).changeRole(second!, values.role ?? '');
    else if (command === 'remove-user') output = await admin.people(arg).remove(second!);
    else if (command === 'verify-audit') {
      const verdict = await admin.verifyAudit(arg);
      console.log(JSON.stringify(verdict, null, 2));
      return verdict.problems.length ? 3 : 0;
    }
    else {
      await admin.revokeKey(arg);
      output = { revoked: arg, note: 'running servers are told at once (PostgreSQL NOTIFY) and refuse it from now on' };
    }
    console.log(JSON.stringify(output, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof DomainError) {
      console.error(`${command}: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await platform.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
