// CLI commands for keys and accounts (contract, "Operator interface"). A running server picks every change up
// within a second. With REDIS_URL (fleet mode) they work on Redis, as the servers do: the same commands.
import type { Command } from 'commander';
import { AccountStoreError, type AccountStore } from '../server/accounts/accountStore.js';
import { openStores, StoresUnavailableError } from '../server/accounts/openStores.js';
import { dataDirFrom, fleetSettingsFrom, listenAddressFrom } from '../server/process/config.js';
import { DEMO_EMAIL, ensureDemoKey } from '../server/accounts/demoKey.js';
import { isPlanName, PLAN_NAMES, type PlanName } from '../server/accounts/plans.js';

function plan(value: string): PlanName {
  if (!isPlanName(value)) throw new AccountStoreError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

async function withStore(action: (store: AccountStore) => unknown): Promise<void> {
  let stores;
  try {
    stores = await openStores({ dataDir: dataDirFrom(), fleet: fleetSettingsFrom() }, 'cli');
  } catch (error) {
    if (!(error instanceof StoresUnavailableError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 1;
    return;
  }
  try {
    await action(stores.accounts);
  } catch (error) {
    if (!(error instanceof AccountStoreError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 1;
  } finally {
    await stores.close();
  }
}

export function registerAccountCommands(program: Command): void {
  const keys = program.command('keys').description('API keys (only their SHA-256 is stored)');
  keys
    .command('create')
    .description('create a key; creates the account if the e-mail is new, else adds the key to it')
    .requiredOption('--email <email>', 'the account e-mail')
    .option('--plan <plan>', `plan of a new account: ${PLAN_NAMES.join(', ')}`, 'trial')
    .option('--name <name>', 'a name for the key, shown in the dashboard', 'CLI key')
    .action((options: { email: string; plan: string; name: string }) =>
      withStore(async (store) => {
        const wanted = plan(options.plan);
        const { key, account, newAccount } = await store.createKey(options.email, wanted, options.name);
        if (!newAccount && account.plan !== wanted && options.plan !== 'trial') {
          process.stderr.write(`note: ${account.email} stays on ${account.plan}; change plans with: accounts set-plan\n`);
        }
        process.stdout.write(JSON.stringify({ key, accountId: account.id, plan: account.plan }) + '\n');
      }),
    );
  keys
    .command('revoke <keyOrPrefix>')
    .description('revoke a key, given whole or by its prefix (mk_ and the first characters); it is never reactivated')
    .action((keyOrPrefix: string) =>
      withStore(async (store) => {
        const record = await store.revoke(keyOrPrefix);
        process.stdout.write(JSON.stringify({ prefix: record.prefix, accountId: record.accountId, revokedAt: record.revokedAt }) + '\n');
      }),
    );
  keys
    .command('list')
    .description('list keys by prefix (never the keys themselves), one JSON line each')
    .option('--email <email>', 'only the keys of this account')
    .action((options: { email?: string }) =>
      withStore(async (store) => {
        const accounts = store.allAccounts();
        const only = options.email ? store.accountByEmail(options.email) : undefined;
        if (options.email && !only) throw new AccountStoreError(`no account for ${options.email}`);
        const usage = await store.monthlyUsage();
        for (const k of store.allKeys().values()) {
          if (only && k.accountId !== only.id) continue;
          const account = accounts.get(k.accountId);
          const used = usage.get(k.accountId);
          process.stdout.write(
            JSON.stringify({
              prefix: k.prefix,
              lastFour: k.lastFour || null,
              name: k.name,
              email: account?.email,
              accountId: k.accountId,
              plan: account?.plan,
              createdAt: k.createdAt,
              revokedAt: k.revokedAt ?? null,
              lastUsedDay: k.lastUsedDay ?? null,
              accountRequestsThisMonth: used && used.month === new Date().toISOString().slice(0, 7) ? used.monthCount : 0,
            }) + '\n',
          );
        }
      }),
    );
  program
    .command('accounts')
    .description('accounts and their plans')
    .command('set-plan')
    .description('move an account to another plan; a running server applies it within a second')
    .requiredOption('--email <email>', 'the account e-mail')
    .requiredOption('--plan <plan>', PLAN_NAMES.join(', '))
    .action((options: { email: string; plan: string }) =>
      withStore(async (store) => {
        const account = await store.setPlan(options.email, plan(options.plan));
        process.stdout.write(JSON.stringify({ accountId: account.id, email: account.email, plan: account.plan }) + '\n');
      }),
    );
  program
    .command('demo')
    .description('make sure the demo account has a working key; print it and a curl that uses it')
    .action(() =>
      withStore(async (store) => {
        const dataDir = dataDirFrom();
        const { port, host } = listenAddressFrom();
        const key = await ensureDemoKey(store, dataDir);
        process.stdout.write(
          `Demo key (account ${DEMO_EMAIL}, business plan): ${key}\n` +
            `  curl -H 'Authorization: Bearer ${key}' 'http://${host}:${port}/api/v1/times?city=istanbul'\n`,
        );
      }),
    );
}
