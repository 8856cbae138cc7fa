// Accounts found by an address's key (emailAddress.ts) over both stores (embedded LMDB, Redis on a real redis-server):
// the address kept as typed, ASCII letters compared without case and every other letter exactly, IDN domains in their
// ASCII form; the CLI's paths (createKey, setPlan, accountByEmail) and sign-in's (ensureAccount) find the same account;
// and accounts stored before keys (indexed by the address lowercased) are still found.
import { describe, expect, it } from 'vitest';
import { openAccountsEnvironment } from './accountsEnvironment.js';
import type { Account } from './accountStore.js';
import { emailKey } from './emailAddress.js';
import { redisKeys } from './redisKeys.js';
import { STORE_KINDS, storeFixture, type StoreFixture } from '../../testing/storeFixture.js';

describe('emailKey', () => {
  it('folds ASCII A–Z only, keeps other letters as typed (NFC), and puts the domain in its ASCII form', () => {
    expect(emailKey('Ali.Veli@Example.COM')).toBe('ali.veli@example.com');
    expect(emailKey('ÇAĞRI@örnek.com.tr')).toBe('ÇaĞri@xn--rnek-4qa.com.tr');
    expect(emailKey('ÇAĞRI@ÖRNEK.COM.TR')).toBe(emailKey('ÇAĞRI@xn--rnek-4qa.com.tr'));
    expect(emailKey('çağrı@örnek.com.tr')).toBe('çağrı@xn--rnek-4qa.com.tr');
    expect(emailKey('I@x.example')).toBe(emailKey('i@X.example'));
    expect(emailKey('ı@x.example')).not.toBe(emailKey('I@x.example'));
    expect(emailKey('İ@x.example')).not.toBe(emailKey('i@x.example'));
    // The same letters typed decomposed (c + combining cedilla) are the same key.
    expect(emailKey('c\u0327@x.example')).toBe(emailKey('ç@x.example'));
    for (const bad of ['', 'no-at', '@x.example', 'a@', 'a@xn--zz.example', 'a@exa mple.com']) expect(emailKey(bad)).toBeUndefined();
  });
});

/** Writes accounts as a store made before emailKey did: indexed by the address lowercased (toLowerCase). */
async function storeLegacyAccounts(fixture: StoreFixture, accounts: Account[]): Promise<void> {
  if (fixture.kind === 'lmdb') {
    const environment = openAccountsEnvironment(fixture.dataDir);
    const records = environment.database<Account>('accounts');
    const emails = environment.database<string>('emails');
    environment.root.transactionSync(() => {
      for (const account of accounts) {
        records.putSync(account.id, account);
        emails.putSync(account.email, account.id);
      }
    });
    await environment.close();
    return;
  }
  for (const account of accounts) {
    await fixture.client.hset(redisKeys.account(account.id), { ...account });
    await fixture.client.sadd(redisKeys.accounts(), account.id);
    await fixture.client.set(redisKeys.email(account.email), account.id);
  }
}

describe.each(STORE_KINDS)('%s', (kind) => {
  const fixture = storeFixture(kind);

  it('keeps the address as typed and finds it by its key: the CLI\'s commands and sign-in agree', async () => {
    const { accounts } = await fixture.open();
    const made = await accounts.ensureAccount('  ÇAĞRI@örnek.com.tr ');
    expect(made).toMatchObject({ newAccount: true, account: { email: 'ÇAĞRI@örnek.com.tr' } });
    const id = made.account.id;
    for (const same of ['ÇAĞRI@ÖRNEK.COM.TR', 'ÇAĞRI@xn--rnek-4qa.com.tr', 'ÇAĞRi@örnek.com.tr']) expect(accounts.accountByEmail(same)?.id).toBe(id);
    // What toLowerCase made of it before is another mailbox, so another account.
    expect(accounts.accountByEmail('çağri@örnek.com.tr')).toBeUndefined();
    // `keys create --email` and `accounts set-plan --email`, typed another way, land on the same account.
    const created = await accounts.createKey('ÇAĞRI@ÖRNEK.com.tr', 'trial', 'ci');
    expect(created).toMatchObject({ newAccount: false, account: { id } });
    expect((await accounts.setPlan('ÇAĞRI@xn--rnek-4qa.COM.tr', 'pro')).id).toBe(id);
    expect(accounts.accountById(id)).toMatchObject({ email: 'ÇAĞRI@örnek.com.tr', plan: 'pro' });
    // The same letters in lower case are not ASCII: a different local part, a different account.
    const lower = await accounts.ensureAccount('çağrı@ÖRNEK.com.tr');
    expect(lower.newAccount).toBe(true);
    expect(lower.account.id).not.toBe(id);
    await expect(Promise.resolve().then(() => accounts.setPlan('nobody@örnek.com.tr', 'pro'))).rejects.toThrow('no account for');
    await expect(Promise.resolve().then(() => accounts.createKey('a@xn--zz.example'))).rejects.toThrow('is not an e-mail address');
  });

  it('tells I from ı, and I from i only by ASCII case', async () => {
    const { accounts } = await fixture.open();
    const dotless = await accounts.ensureAccount('ı@x.example');
    const capital = await accounts.ensureAccount('I@x.example');
    expect(capital.newAccount).toBe(true);
    expect(capital.account.id).not.toBe(dotless.account.id);
    expect(await accounts.ensureAccount('i@X.EXAMPLE')).toMatchObject({ newAccount: false, account: { id: capital.account.id, email: 'I@x.example' } });
    expect(accounts.accountByEmail('ı@x.example')?.id).toBe(dotless.account.id);
  });

  it('still finds accounts stored before keys (indexed lowercased), and keeps their plan when a key is added', async () => {
    const legacy: Account[] = [
      { id: 'acc_legacyidn', email: 'çağri@örnek.com.tr', plan: 'pro', createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'acc_legacyascii', email: 'ali@example.com', plan: 'business', createdAt: '2026-01-02T00:00:00.000Z' },
      // Decomposed, as some keyboards type it: c + U+0327.
      { id: 'acc_legacynfd', email: 'c\u0327elik@example.com', plan: 'pro', createdAt: '2026-01-03T00:00:00.000Z' },
    ];
    await storeLegacyAccounts(fixture, legacy);
    const { accounts } = await fixture.open();
    expect(accounts.accountByEmail('çağri@ÖRNEK.com.tr')?.id).toBe('acc_legacyidn');
    expect(accounts.accountByEmail('Ali@Example.COM')?.id).toBe('acc_legacyascii');
    expect(accounts.accountByEmail('çelik@example.com')?.id).toBe('acc_legacynfd');
    // Another mailbox, as before: not the legacy account.
    expect(accounts.accountByEmail('ÇAĞRI@örnek.com.tr')).toBeUndefined();
    const added = await accounts.createKey('çağri@xn--rnek-4qa.com.tr', 'trial', 'later');
    expect(added).toMatchObject({ newAccount: false, account: { id: 'acc_legacyidn', email: 'çağri@örnek.com.tr', plan: 'pro' } });
    expect(await accounts.ensureAccount('çelik@example.com')).toMatchObject({ newAccount: false, account: { id: 'acc_legacynfd', plan: 'pro' } });
    expect((await accounts.setPlan('ALI@example.com', 'pro')).id).toBe('acc_legacyascii');
    // Opened again (the next CLI run, another server), the same.
    const again = (await fixture.open()).accounts;
    for (const { id, email } of legacy) expect(again.accountByEmail(email)?.id).toBe(id);
    expect(again.accountById('acc_legacyidn')).toMatchObject({ plan: 'pro' });
  });
});
