// The usage counts of every account in one SharedArrayBuffer, so that several serving threads count against the same
// limits exactly. Each account has a slot (an open-addressing hash table keyed by account id); a slot is updated
// under its own spin lock, held only for the arithmetic of quota.ts, so threads never wait on I/O for each other.
// The primary thread loads the stored counts into it at start and writes the changed slots back every second.
import { admit, type PlanQuota, type QuotaDecision, type Usage } from './quota.js';
import type { UsageLedger } from './usageLedger.js';

/** Account ids are `acc_` and 16 hex digits (accountStore.ts); room for longer ones all the same. */
const ID_BYTES = 48;
/** Int32 fields of a slot. */
const LOCK = 0;
const DIRTY = 1;
const ID_LENGTH = 2; // 0: the slot is free; written last when a slot is taken
const MONTH = 3; // year × 100 + month, 0 for none
const MONTH_COUNT = 4;
const WINDOW_COUNT = 5;
const INTS_PER_SLOT = 8;
/** Header Int32s: the lock that serialises taking slots, and the number taken. */
const HEADER_INTS = 4;
const TABLE_LOCK = 0;
const TAKEN = 1;
const MIN_CAPACITY = 1 << 12;

export class UsageTableFullError extends Error {}

const monthNumber = (month: string): number => (month === '' ? 0 : Number(month.slice(0, 4)) * 100 + Number(month.slice(5, 7)));
const monthText = (n: number): string => (n === 0 ? '' : `${Math.floor(n / 100)}-${String(n % 100).padStart(2, '0')}`);

/** FNV-1a over the id's characters (ids are ASCII). */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function lock(ints: Int32Array, index: number): void {
  // Held for a few hundred nanoseconds at most, by another serving thread: spinning beats sleeping.
  while (Atomics.compareExchange(ints, index, 0, 1) !== 0) {
    /* spin */
  }
}

const unlock = (ints: Int32Array, index: number): void => void Atomics.store(ints, index, 0);

export class SharedUsage implements UsageLedger {
  readonly capacity: number;
  private readonly ints: Int32Array;
  private readonly windowStarts: Float64Array;
  private readonly ids: Uint8Array;
  /** This thread's memo of slots already found (slots are never freed, so it never goes stale). */
  private readonly slots = new Map<string, number>();
  private readonly scratch: Usage = { month: '', monthCount: 0, windowStart: 0, windowCount: 0 };

  private constructor(readonly buffer: SharedArrayBuffer) {
    this.capacity = SharedUsage.capacityOf(buffer.byteLength);
    const intBytes = (HEADER_INTS + this.capacity * INTS_PER_SLOT) * 4;
    this.ints = new Int32Array(buffer, 0, HEADER_INTS + this.capacity * INTS_PER_SLOT);
    this.windowStarts = new Float64Array(buffer, intBytes, this.capacity);
    this.ids = new Uint8Array(buffer, intBytes + this.capacity * 8, this.capacity * ID_BYTES);
  }

  private static bytesFor(capacity: number): number {
    return (HEADER_INTS + capacity * INTS_PER_SLOT) * 4 + capacity * 8 + capacity * ID_BYTES;
  }

  private static capacityOf(byteLength: number): number {
    const perSlot = INTS_PER_SLOT * 4 + 8 + ID_BYTES;
    return (byteLength - HEADER_INTS * 4) / perSlot;
  }

  /** A table with room for at least `accounts` accounts, kept at most half full so probes stay short. */
  static create(accounts: number): SharedUsage {
    let capacity = MIN_CAPACITY;
    while (capacity < accounts * 2) capacity *= 2;
    return new SharedUsage(new SharedArrayBuffer(SharedUsage.bytesFor(capacity)));
  }

  /** The same table, seen from another thread. */
  static attach(buffer: SharedArrayBuffer): SharedUsage {
    return new SharedUsage(buffer);
  }

  private idMatches(slot: number, id: string, length: number): boolean {
    if (length !== id.length) return false;
    const base = slot * ID_BYTES;
    for (let i = 0; i < length; i++) if (this.ids[base + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  private idAt(slot: number): string {
    const length = this.lengthAt(slot);
    return String.fromCharCode(...this.ids.subarray(slot * ID_BYTES, slot * ID_BYTES + length));
  }

  /** The slot of an account: found by probing, or taken under the table lock. */
  private slotOf(id: string): number {
    let slot = this.slots.get(id);
    if (slot !== undefined) return slot;
    if (id.length > ID_BYTES || /[^\x20-\x7e]/.test(id)) throw new Error(`account id ${JSON.stringify(id)} does not fit the usage table`);
    slot = this.probe(id);
    if (this.lengthAt(slot) === 0) {
      lock(this.ints, TABLE_LOCK);
      try {
        slot = this.probe(id); // another thread may have taken it meanwhile
        if (this.lengthAt(slot) === 0) {
          if (Atomics.load(this.ints, TAKEN) * 2 >= this.capacity) {
            throw new UsageTableFullError(`the usage table holds ${this.capacity / 2} accounts; restart the server to grow it`);
          }
          for (let i = 0; i < id.length; i++) this.ids[slot * ID_BYTES + i] = id.charCodeAt(i);
          Atomics.add(this.ints, TAKEN, 1);
          Atomics.store(this.ints, HEADER_INTS + slot * INTS_PER_SLOT + ID_LENGTH, id.length); // publishes the id
        }
      } finally {
        unlock(this.ints, TABLE_LOCK);
      }
    }
    this.slots.set(id, slot);
    return slot;
  }

  private lengthAt(slot: number): number {
    return Atomics.load(this.ints, HEADER_INTS + slot * INTS_PER_SLOT + ID_LENGTH);
  }

  /** The account's slot, or the free slot where it would go (the table is never full: at most half is taken). */
  private probe(id: string): number {
    const mask = this.capacity - 1;
    let slot = hashId(id) & mask;
    for (;;) {
      const length = this.lengthAt(slot);
      if (length === 0 || this.idMatches(slot, id, length)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /**
   * Runs `change` on the account's usage under the slot's lock and stores what it leaves; marks the slot changed.
   * `change` must be quick and must not throw (quota.ts's admit).
   */
  count(accountId: string, plan: PlanQuota, now: number, requests: number): QuotaDecision {
    return this.update(accountId, (usage) => admit(usage, plan, now, requests));
  }

  update<T>(accountId: string, change: (usage: Usage) => T): T {
    return this.withSlot(this.slotOf(accountId), change, true);
  }

  private withSlot<T>(slot: number, change: (usage: Usage) => T, markChanged: boolean): T {
    const base = HEADER_INTS + slot * INTS_PER_SLOT;
    const usage = this.scratch;
    lock(this.ints, base + LOCK);
    try {
      usage.month = monthText(this.ints[base + MONTH]);
      usage.monthCount = this.ints[base + MONTH_COUNT];
      usage.windowStart = this.windowStarts[slot];
      usage.windowCount = this.ints[base + WINDOW_COUNT];
      const result = change(usage);
      this.ints[base + MONTH] = monthNumber(usage.month);
      this.ints[base + MONTH_COUNT] = usage.monthCount;
      this.windowStarts[slot] = usage.windowStart;
      this.ints[base + WINDOW_COUNT] = usage.windowCount;
      if (markChanged) Atomics.store(this.ints, base + DIRTY, 1);
      return result;
    } finally {
      unlock(this.ints, base + LOCK);
    }
  }

  private readonly copyUsage = (usage: Usage): Usage => ({ ...usage });

  /** A copy of an account's usage (undefined when it has none). */
  read(accountId: string): Usage | undefined {
    const slot = this.slots.get(accountId) ?? this.probe(accountId);
    return this.lengthAt(slot) === 0 ? undefined : this.withSlot(slot, this.copyUsage, false);
  }

  /** Puts stored counts in (at start, before any thread serves); not marked changed. */
  load(entries: Iterable<[string, Usage]>): void {
    for (const [id, stored] of entries) {
      const slot = this.slotOf(id);
      this.withSlot(slot, (usage) => void Object.assign(usage, stored), false);
    }
  }

  /** The usage of every slot changed since the last call, copied under its lock; clears the marks. */
  takeChanged(): Array<[string, Usage]> {
    const changed: Array<[string, Usage]> = [];
    for (let slot = 0; slot < this.capacity; slot++) {
      const base = HEADER_INTS + slot * INTS_PER_SLOT;
      if (this.lengthAt(slot) === 0 || Atomics.exchange(this.ints, base + DIRTY, 0) === 0) continue;
      changed.push([this.idAt(slot), this.withSlot(slot, this.copyUsage, false)]);
    }
    return changed;
  }

  /** Marks slots changed again (their write failed), so the next flush retries them. */
  markChanged(accountIds: Iterable<string>): void {
    for (const id of accountIds) Atomics.store(this.ints, HEADER_INTS + this.slotOf(id) * INTS_PER_SLOT + DIRTY, 1);
  }
}
