// Which processes have an LMDB environment open. LMDB itself marks each: every process that opens an environment
// holds a shared POSIX lock on its lock.mdb for as long as it keeps it open (released by the kernel however the
// process ends, kill -9 included). Linux lists those locks in /proc/locks by device and inode, so a restore can tell
// a data directory that a server (or a CLI command) is using from a stopped one without asking anybody.
import { readFileSync, statSync } from 'node:fs';

/** `MAJ:MIN:INODE` as /proc/locks writes a file (major and minor in hex). */
function lockedFileId(file: string): string | undefined {
  let stat;
  try {
    stat = statSync(file, { bigint: true });
  } catch {
    return undefined; // no lock file: nobody has had the environment open here
  }
  // glibc's major()/minor() of a dev_t.
  const major = ((stat.dev >> 8n) & 0xfffn) | ((stat.dev >> 32n) & ~0xfffn);
  const minor = (stat.dev & 0xffn) | ((stat.dev >> 12n) & ~0xffn);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${stat.ino}`;
}

export class HoldersUnknownError extends Error {}

/**
 * The ids of the processes holding a lock on `lockFile` (an environment's lock.mdb), this one included if it has the
 * environment open; empty when none does. Throws HoldersUnknownError where /proc/locks cannot be read (not Linux).
 */
export function environmentHolders(lockFile: string, locks: () => string = () => readFileSync('/proc/locks', 'utf8')): number[] {
  const id = lockedFileId(lockFile);
  if (id === undefined) return [];
  let text: string;
  try {
    text = locks();
  } catch (error) {
    throw new HoldersUnknownError(`cannot tell which processes use ${lockFile}: /proc/locks is unreadable (${(error as Error).message})`);
  }
  const pids = new Set<number>();
  for (const line of text.split('\n')) {
    // `1: POSIX  ADVISORY  READ 26455 fe:00:2343814 0 0`; a waiter's line has `->` after the number.
    const fields = line.replace('->', '').trim().split(/\s+/);
    if (fields.length >= 6 && fields[5] === id) pids.add(Number(fields[4]));
  }
  return [...pids];
}
