// CLI commands that back up and restore the account store (contract, "Operations"; docs/operations.md, "Backups").
// Embedded only: with REDIS_URL (fleet mode) the accounts, keys and counts live in Redis, which backs itself up
// (RDB snapshots, the AOF), and both commands refuse and say so.
import type { Command } from 'commander';
import { backupAccounts, BackupError, restoreAccounts } from '../server/accounts/accountsBackup.js';
import { HoldersUnknownError } from '../server/accounts/environmentHolders.js';
import { dataDirFrom, fleetSettingsFrom } from '../server/process/config.js';

const counted = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const FLEET_REFUSAL =
  'REDIS_URL is set (fleet mode): the accounts, keys, sessions, passkeys and counts live in Redis, not in DATA_DIR, ' +
  "so there is no account store here to back up or restore. Back up Redis itself: copy its RDB snapshot (BGSAVE, then dump.rdb) " +
  'or its AOF directory (appendonly yes); docs/operations.md, "Backups", says how.';

/** Runs a command's work, turning what an operator can fix into one line on stderr and exit code 1. */
async function reported(what: string, work: () => Promise<void>): Promise<void> {
  try {
    if (fleetSettingsFrom().redisUrl !== undefined) throw new BackupError(FLEET_REFUSAL);
    await work();
  } catch (error) {
    const known = error instanceof BackupError || error instanceof HoldersUnknownError || (error as NodeJS.ErrnoException).code !== undefined;
    if (!known) throw error;
    process.stderr.write(`${what} failed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

export function registerBackupCommands(program: Command): void {
  program
    .command('backup')
    .description('copy the account store (keys, plans, counts, sessions, passkeys, billing) into a new directory while the server runs; a manifest names it with its SHA-256')
    .requiredOption('--to <dir>', 'a new or empty directory')
    .action((options: { to: string }) =>
      reported('backup', async () => {
        const manifest = await backupAccounts(dataDirFrom(), options.to);
        const { contents: c } = manifest;
        process.stdout.write(
          `Backed up ${dataDirFrom()}/accounts as it stood at ${manifest.startedAt} to ${options.to}: ` +
            `${counted(c.accounts, 'account')}, ${counted(c.keys, 'key')}, ${counted(c.passkeys, 'passkey')}, ${counted(c.sessions, 'session')}, ` +
            `${counted(c.requestsThisMonth, 'request')} counted in ${c.month}; ${manifest.files[0].bytes} bytes, SHA-256 ${manifest.files[0].sha256}.\n`,
        );
      }),
    );
  program
    .command('restore')
    .description('put a backup’s account store into DATA_DIR, which no server may be using; the checksums are checked first')
    .requiredOption('--from <dir>', 'a directory written by backup')
    .option('--replace', 'replace an account store that DATA_DIR holds already (it is kept beside, as accounts.replaced-<time>)')
    .action((options: { from: string; replace?: boolean }) =>
      reported('restore', async () => {
        const dataDir = dataDirFrom();
        const { manifest, replacedTo } = await restoreAccounts(options.from, dataDir, { replace: options.replace });
        const { contents: c } = manifest;
        process.stdout.write(
          `Restored the account store of ${manifest.startedAt} (${counted(c.accounts, 'account')}, ${counted(c.keys, 'key')}, ${counted(c.passkeys, 'passkey')}) into ${dataDir}/accounts; checksums match.` +
            (replacedTo ? ` The store it replaced is in ${replacedTo}.` : '') +
            '\n',
        );
      }),
    );
}
