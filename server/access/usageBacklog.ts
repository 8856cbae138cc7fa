// The units one serving thread counted on its own while Redis was away (LIMITS_ON_REDIS_FAILURE=local), kept by
// account and UTC day until they are merged into Redis. Each batch taken for merging gets an id per entry that stays
// with it until Redis confirms, so a merge retried after a lost answer is applied once (usageScripts.ts, MERGE_LUA).
import { randomBytes } from 'node:crypto';

export interface BacklogEntry {
  accountId: string;
  /** `YYYY-MM-DD` (UTC) the units were counted on. */
  day: string;
  units: number;
  /** The marker under which Redis applies this entry once. */
  mergeId: string;
}

export class UsageBacklog {
  /** `accountId day` → units counted and not yet taken for a merge. */
  private readonly counted = new Map<string, number>();
  /** Entries taken for a merge and not confirmed: sent again, with the same id, by the next merge. */
  private unconfirmed: BacklogEntry[] = [];
  private readonly idPrefix = randomBytes(6).toString('hex');
  private sequence = 0;

  /** Units counted here; negative for units Redis counted that were decided here (usageTally.ts). */
  add(accountId: string, day: string, units: number): void {
    const key = `${accountId} ${day}`;
    this.counted.set(key, (this.counted.get(key) ?? 0) + units);
  }

  get empty(): boolean {
    return this.counted.size === 0 && this.unconfirmed.length === 0;
  }

  /** All units not merged yet (for the log). */
  get units(): number {
    let units = 0;
    for (const n of this.counted.values()) units += n;
    for (const entry of this.unconfirmed) units += entry.units;
    return units;
  }

  /** What the next merge sends: the unconfirmed entries again, and everything counted since, with new ids. */
  take(): BacklogEntry[] {
    for (const [key, units] of this.counted) {
      if (units === 0) continue; // a correction that cancelled what was counted (usageTally.ts)
      const space = key.indexOf(' ');
      this.unconfirmed.push({ accountId: key.slice(0, space), day: key.slice(space + 1), units, mergeId: `${this.idPrefix}-${(++this.sequence).toString(36)}` });
    }
    this.counted.clear();
    const batch = this.unconfirmed;
    this.unconfirmed = [];
    return batch;
  }

  /** Entries of a batch that Redis did not confirm: kept, with their ids, for the next merge. */
  putBack(entries: readonly BacklogEntry[]): void {
    this.unconfirmed.push(...entries);
  }
}
