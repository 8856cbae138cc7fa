// A mail when an account's use of the month passes 80% and 100% of its quota (issue 32): once each per account and
// month, in every mode. Each counting decision is looked at on the request path, where below 80% it costs one
// comparison; at or above, this thread remembers the highest level it has handled for the account this month, so it
// acts once per level. Acting is claiming the level in the account store (an LMDB write transaction, or SET NX on
// Redis in fleet mode: one thread of one server wins), and the winner sends the mail, off the request path.
//
// At most once: a send that fails is logged and not tried again (a retry could not tell a mail that was lost from
// one that was delivered before an error). A quota that jumps past both levels at once (a plan lowered mid-month)
// sends only the 100% mail, and claims the 80% one so that it never follows.
import type { Account, AccountStore } from '../accounts/accountStore.js';
import { log } from '../log.js';
import { monthOf, type QuotaDecision } from './quota.js';

export type QuotaLevel = 80 | 100;

export interface QuotaAlert {
  account: Account;
  /** `YYYY-MM` (UTC). */
  month: string;
  level: QuotaLevel;
  /** Requests counted this month when the level was seen, and the plan's monthly quota. */
  used: number;
  limit: number;
  /** The first instant of the next UTC month, when the quota resets (ISO). */
  resets: string;
}

export class QuotaAlerts {
  /** Account id → the month and highest level this thread has acted on. */
  private readonly handled = new Map<string, { month: string; level: QuotaLevel }>();
  /** Sends in flight (tests and a clean stop wait for them). */
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly store: Pick<AccountStore, 'claimQuotaAlert'>,
    private readonly send: (alert: QuotaAlert) => Promise<void>,
  ) {}

  /** On the request path, with every decision of the limits (admitted or refused). */
  observe(account: Account, decision: QuotaDecision, now: number): void {
    const limit = decision.plan.perMonth;
    const used = limit - decision.monthRemaining;
    if (used * 5 < limit * 4) return;
    const level: QuotaLevel = used >= limit ? 100 : 80;
    const month = monthOf(now);
    const done = this.handled.get(account.id);
    if (done !== undefined && done.month === month && done.level >= level) return;
    this.handled.set(account.id, { month, level });
    const sent = this.claimAndSend({ account, month, level, used, limit, resets: decision.monthReset });
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  private async claimAndSend(alert: QuotaAlert): Promise<void> {
    try {
      let claimed: boolean;
      try {
        claimed = await this.store.claimQuotaAlert(alert.account.id, alert.month, alert.level);
      } catch (error) {
        // Not claimed (the store is away): a later request of the account tries again.
        const done = this.handled.get(alert.account.id);
        if (done?.month === alert.month && done.level === alert.level) this.handled.delete(alert.account.id);
        throw error;
      }
      if (!claimed) return;
      if (alert.level === 100) await this.store.claimQuotaAlert(alert.account.id, alert.month, 80);
      await this.send(alert);
      log('info', 'quota_mail_sent', { accountId: alert.account.id, month: alert.month, level: alert.level });
    } catch (error) {
      log('error', 'quota_mail_failed', { accountId: alert.account.id, month: alert.month, level: alert.level, error: String(error) });
    }
  }

  /** Resolves once the sends in flight are done. */
  async settled(): Promise<void> {
    await Promise.all([...this.sending]);
  }
}
