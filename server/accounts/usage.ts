// An account's counts as they are kept: the month's and the current per-minute window's. The account store persists
// them; access/quota.ts decides with them.

export interface Usage {
  /** `YYYY-MM` of the counted month (UTC). */
  month: string;
  monthCount: number;
  /** UTC milliseconds at which the current per-minute window began. */
  windowStart: number;
  windowCount: number;
}
