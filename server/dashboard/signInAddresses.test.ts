// E-mail addresses at sign-in over real HTTP, against the real server and a real SMTP sink (testing/smtpSink.ts):
// mail goes to the address as typed (`ÇAĞRI@…`, never toLowerCase's `çağri@…`), IDN domains go out as the relay needs
// them, accounts are found by the address's key (docs/dashboard.md, "E-mail addresses") by the dashboard and the CLI
// alike, an account stored before keys is still found; and a send refused by the per-address limit uses up nothing of
// the client's twenty.
import { domainToASCII } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openAccountsEnvironment } from '../accounts/accountsEnvironment.js';
import type { Account } from '../accounts/accountStore.js';
import { openAccountStore } from '../accounts/openStores.js';
import { DashboardBrowser, type Answer } from '../../testing/dashboardBrowser.js';
import { dataDirWithCatalog, runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../../testing/smtpSink.js';
import { SENDS_PER_ADDRESS_PER_HOUR, SENDS_PER_CLIENT_PER_HOUR } from './signIn.js';

const mainOf = (text: string): string => /<main id="main">([\s\S]*)<\/main>/.exec(text)?.[1] ?? '';
const localPart = (address: string): string => address.slice(0, address.lastIndexOf('@'));
const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1);

/** The newest message whose envelope recipient has this local part (the server hands it over before it answers). */
function newestTo(sink: SmtpSink, local: string): SinkMessage {
  const found = sink.messages.filter((m) => m.envelopeTo.some((to) => localPart(to) === local)).pop();
  if (!found) throw new Error(`no message to ${local}@…`);
  return found;
}

/** An account as a store made before keys kept it: indexed by the address as toLowerCase left it. */
const LEGACY: Account = { id: 'acc_legacy0001', email: 'çağri@örnek.com.tr', plan: 'pro', createdAt: '2026-01-01T00:00:00.000Z' };

async function storeLegacyAccount(dataDir: string): Promise<void> {
  const environment = openAccountsEnvironment(dataDir);
  const accounts = environment.database<Account>('accounts');
  const emails = environment.database<string>('emails');
  environment.root.transactionSync(() => {
    accounts.putSync(LEGACY.id, LEGACY);
    emails.putSync(LEGACY.email, LEGACY.id);
  });
  await environment.close();
}

describe('with a relay that offers SMTPUTF8', () => {
  let sink: SmtpSink;
  let server: RunningServer;

  beforeAll(async () => {
    sink = await startSmtpSink({ smtpUtf8: true });
    const dataDir = dataDirWithCatalog(inject('catalogDataDir'));
    await storeLegacyAccount(dataDir);
    // TRUST_PROXY: the test's browsers name their clients in X-Forwarded-For, as the proxy would.
    server = await startServer({ DATA_DIR: dataDir, SMTP_URL: sink.url, MAIL_FROM: 'Tests <tests@prayer-times.example>', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.stop();
    await sink?.close();
  });

  const browser = (): DashboardBrowser => DashboardBrowser.forServer(server);
  /** Signs a new browser in as `email`; resolves with it and the home page's main. */
  async function signedIn(email: string): Promise<{ b: DashboardBrowser; home: string }> {
    const b = browser();
    const answer = await b.signIn(email, async () => newestTo(sink, localPart(email)));
    expect(answer.status).toBe(303);
    return { b, home: mainOf((await b.get('/dashboard')).text) };
  }
  async function accountIdOf(email: string): Promise<string | undefined> {
    const accounts = openAccountStore(server.dataDir);
    try {
      return accounts.accountByEmail(email)?.id;
    } finally {
      await accounts.close();
    }
  }

  it('mails ÇAĞRI@örnek.com.tr as typed: the local part ÇAĞRI, the IDN domain as SMTPUTF8 carries it, never çağri', async () => {
    const b = browser();
    const sent = await b.askCode('  ÇAĞRI@örnek.com.tr ');
    expect(sent.status).toBe(200);
    expect(mainOf(sent.text)).toContain('If ÇAĞRI@örnek.com.tr can sign in, we sent a code to it.');
    const mail = newestTo(sink, 'ÇAĞRI');
    expect(mail.envelopeTo).toHaveLength(1);
    expect(localPart(mail.envelopeTo[0])).toBe('ÇAĞRI');
    expect(domainToASCII(domainOf(mail.envelopeTo[0]))).toBe('xn--rnek-4qa.com.tr');
    // On the wire: a non-ASCII local part needs SMTPUTF8 (RFC 6531), which nodemailer asked for.
    expect(mail.smtpUtf8).toBe(true);
    expect(sink.commands).toContain('RCPT TO:<ÇAĞRI@örnek.com.tr>');
    expect(sink.commands.some((c) => c.startsWith('MAIL FROM:') && c.includes('SMTPUTF8'))).toBe(true);
    expect(mail.to).toContain('ÇAĞRI@');
    // (Compared exactly: a case-insensitive match would find ÇAĞRI in çağri, the very mistake.)
    expect(JSON.stringify(sink.messages) + sink.commands.join('\n')).not.toContain('çağri');

    expect((await b.post('/dashboard/sign-in/code', { code: mail.code })).status).toBe(303);
    const home = mainOf((await b.get('/dashboard')).text);
    expect(home).toContain('ÇAĞRI@örnek.com.tr');
    expect(home).toContain('Trial');
  });

  it('signs the same person in to the same account however the domain or ASCII letters are cased, and çağrı@ to another', async () => {
    const first = await signedIn('ÇAĞRI@örnek.com.tr');
    const id = await accountIdOf('ÇAĞRI@örnek.com.tr');
    expect(id).toBeDefined();
    await first.b.get('/dashboard/keys');
    expect((await first.b.post('/dashboard/keys', { name: 'first key' })).status).toBe(200);

    // The domain in capitals, or as punycode: the same account (the page shows the address as first typed, and its key).
    for (const same of ['ÇAĞRI@ÖRNEK.COM.TR', 'ÇAĞRI@xn--rnek-4qa.com.tr']) {
      const again = await signedIn(same);
      expect(again.home).toContain('ÇAĞRI@örnek.com.tr');
      expect(mainOf((await again.b.get('/dashboard/keys')).text)).toContain('first key');
      expect(await accountIdOf(same)).toBe(id);
    }
    // Turkish lower case is not ASCII: çağrı is another local part, so another mailbox and another account.
    const other = await signedIn('çağrı@ÖRNEK.com.tr');
    expect(other.home).toContain('çağrı@ÖRNEK.com.tr');
    expect(mainOf((await other.b.get('/dashboard/keys')).text)).not.toContain('first key');
    const otherId = await accountIdOf('çağrı@örnek.com.tr');
    expect(otherId).toBeDefined();
    expect(otherId).not.toBe(id);
  });

  it('tells I@ from ı@ (two accounts), and I@ from i@ only by ASCII case (one)', async () => {
    const capital = await signedIn('I@tr.example');
    expect(capital.home).toContain('I@tr.example');
    const dotless = await signedIn('ı@tr.example');
    expect(dotless.home).toContain('ı@tr.example');
    expect(newestTo(sink, 'ı').envelopeTo).toEqual(['ı@tr.example']);
    const small = await signedIn('i@TR.example');
    expect(small.home).toContain('I@tr.example');
    const [i, dotlessI] = [await accountIdOf('I@tr.example'), await accountIdOf('ı@tr.example')];
    expect(i).toBeDefined();
    expect(dotlessI).toBeDefined();
    expect(dotlessI).not.toBe(i);
  });

  it('finds the account of `keys create --email` and `accounts set-plan --email` as the dashboard does', async () => {
    const { b } = await signedIn('Cli.User@Örnek.com.tr');
    const env = { DATA_DIR: server.dataDir };
    const created = await runCli(['keys', 'create', '--email', 'cli.user@ÖRNEK.COM.TR', '--name', 'from the CLI'], env);
    expect(created.code).toBe(0);
    const { accountId } = JSON.parse(created.stdout) as { accountId: string };
    expect(accountId).toBe(await accountIdOf('Cli.User@Örnek.com.tr'));
    const planned = await runCli(['accounts', 'set-plan', '--email', 'CLI.USER@xn--rnek-4qa.com.tr', '--plan', 'pro'], env);
    expect(planned.code).toBe(0);
    expect(JSON.parse(planned.stdout)).toEqual({ accountId, email: 'Cli.User@Örnek.com.tr', plan: 'pro' });
    // The dashboard shows the CLI's key, and the plan within a second.
    expect(mainOf((await b.get('/dashboard/keys')).text)).toContain('from the CLI');
    const started = Date.now();
    let home: Answer;
    do home = await b.get('/dashboard');
    while (!mainOf(home.text).includes('Pro') && Date.now() - started < 2000);
    expect(mainOf(home.text)).toContain('Pro');
  });

  it('still signs an account stored before keys (indexed lowercased) in to that account', async () => {
    const { home } = await signedIn('çağri@ÖRNEK.com.tr');
    expect(home).toContain('çağri@örnek.com.tr');
    expect(home).toContain('Pro');
    expect(await accountIdOf('çağri@örnek.com.tr')).toBe(LEGACY.id);
  });

  it('counts against the client only the sends the per-address limit let through', async () => {
    const client = '203.0.113.50';
    const ask = (email: string): Promise<Answer> => DashboardBrowser.forServer(server, client).askCode(email);
    for (let i = 0; i < SENDS_PER_ADDRESS_PER_HOUR; i++) expect((await ask('Capped@example.com')).status).toBe(200);
    // Refused for the address (any case of it): 429, and none of these uses up one of the client's twenty.
    for (const email of ['capped@example.com', 'CAPPED@Example.com', 'Capped@EXAMPLE.com']) {
      const refused = await ask(email);
      expect(refused.status).toBe(429);
      expect(mainOf(refused.text)).toContain('Too many codes were asked');
    }
    const left = SENDS_PER_CLIENT_PER_HOUR - SENDS_PER_ADDRESS_PER_HOUR;
    for (let i = 0; i < left; i++) expect((await ask(`spread${i}@example.com`)).status).toBe(200);
    // Now the client's twenty are used: refused, and not sent.
    expect((await ask('one-more@example.com')).status).toBe(429);
    expect(sink.messages.some((m) => m.envelopeTo.includes('one-more@example.com'))).toBe(false);
    expect(sink.messages.filter((m) => m.envelopeTo.some((to) => to.toLowerCase() === 'capped@example.com'))).toHaveLength(SENDS_PER_ADDRESS_PER_HOUR);
  });
});

describe('with a relay that does not offer SMTPUTF8', () => {
  let sink: SmtpSink;
  let server: RunningServer;

  beforeAll(async () => {
    sink = await startSmtpSink({ smtpUtf8: false });
    server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), SMTP_URL: sink.url, TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.stop();
    await sink?.close();
  });

  it('sends an IDN domain in its ASCII form, with the local part as typed', async () => {
    const b = DashboardBrowser.forServer(server);
    const sent = await b.askCode('Ali@ÖRNEK.com.tr');
    expect(sent.status).toBe(200);
    expect(mainOf(sent.text)).toContain('If Ali@ÖRNEK.com.tr can sign in, we sent a code to it.');
    expect(sink.commands).toContain('RCPT TO:<Ali@xn--rnek-4qa.com.tr>');
    expect(sink.commands.filter((c) => c.startsWith('MAIL FROM:')).every((c) => !c.includes('SMTPUTF8'))).toBe(true);
    const mail = newestTo(sink, 'Ali');
    expect(mail.smtpUtf8).toBe(false);
    expect((await b.post('/dashboard/sign-in/code', { code: mail.code })).status).toBe(303);
    expect(mainOf((await b.get('/dashboard')).text)).toContain('Ali@ÖRNEK.com.tr');
  });
});
