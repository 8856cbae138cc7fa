// What Redis counted of the requests whose answers were lost (docs/fleet.md, "Limits"). A count script that Redis ran
// but whose answer never came back (Redis killed after running it, or an answer later than REDIS_COMMAND_TIMEOUT_MS)
// looks to the server like one that never ran, and the server decides that request on its own
// (LIMITS_ON_REDIS_FAILURE). So each ledger has a field of its own in every usage hash it counts on, which the script
// raises by the units it admits (usageScripts.ts), and keeps the same sum from the answers it received. Once Redis
// answers again, the field less that sum is what Redis counted of the lost answers, and the merge takes it back:
// after an outage Redis holds exactly what the servers admitted. No second write per request: one more hash field.
import { randomBytes } from 'node:crypto';

/** What Redis holds of a ledger's field on one account: the usage hash's month, and the field's units (0 if absent). */
export interface HeldTally {
  month: string | null;
  units: number;
}

export class UsageTally {
  /** This ledger's field in the usage hashes: unique to the ledger, so no other server or thread adds to it. */
  readonly field = `by:${randomBytes(6).toString('hex')}`;
  /** The month of the sums below (Redis's clock); a new month starts every field at zero, as the script does. */
  private month = '';
  /** By account: the units Redis's answers said it admitted for this ledger this month. */
  private readonly confirmed = new Map<string, number>();
  /** Accounts with a count whose answer was lost → the UTC day the server counted it on. */
  private readonly lost = new Map<string, string>();

  /** An answer from Redis in its `month`: `units` admitted (0 for a refusal). */
  confirm(accountId: string, month: string, units: number): void {
    if (month !== this.month) {
      if (month < this.month) return; // an answer from before a month began that another has already shown
      this.month = month;
      this.confirmed.clear();
    }
    if (units > 0) this.confirmed.set(accountId, (this.confirmed.get(accountId) ?? 0) + units);
  }

  /** A count on `accountId` whose answer never came: Redis may or may not have run it. */
  lose(accountId: string, day: string): void {
    this.lost.set(accountId, day);
  }

  /**
   * Once Redis answers (on the connection the lost counts were sent on, so they ran before this reads): for each
   * account with a lost answer, what Redis counted of those requests, handed to `counted` with the day the server
   * counted them on. Returns the units. An account whose read fails stays lost, for the next try.
   */
  async settle(read: (accountId: string) => Promise<HeldTally>, counted: (accountId: string, day: string, units: number) => void): Promise<number> {
    let total = 0;
    for (const [accountId, day] of this.lost) {
      const held = await read(accountId);
      if (held.month !== null && held.month > this.month) {
        this.month = held.month;
        this.confirmed.clear();
      }
      if (held.month === this.month) {
        const units = held.units - (this.confirmed.get(accountId) ?? 0);
        this.confirmed.set(accountId, held.units);
        if (units > 0) {
          counted(accountId, day, units);
          total += units;
        }
      }
      this.lost.delete(accountId);
    }
    return total;
  }
}
