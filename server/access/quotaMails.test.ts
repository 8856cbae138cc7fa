// The quota mails (issue 32) through a real SMTP sink: the month's use passing 80% and then 100% of the quota sends
// one mail each to the account's address, whatever the number of serving threads (two, counting into the shared
// table) or of servers (three on one real Redis, requests spread over them and sent at once); requests past the
// levels and refused ones send nothing more. Another account below 80% gets nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFleet, type Fleet } from '../../testing/fleet.js';
import { provisionKey, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../../testing/smtpSink.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const QUOTA = 10;
const PLANS = { trial: { perMinute: 1000, perMonth: QUOTA } };
const month = () => new Date().toISOString().slice(0, 7);

const to = (sink: SmtpSink, email: string): SinkMessage[] => sink.messages.filter((m) => m.envelopeTo.includes(email));
const eighty = (m: SinkMessage) => m.subject.startsWith('You have used 80% of your monthly API quota');
const full = (m: SinkMessage) => m.subject.startsWith('Your monthly API quota is used up');

/** Waits a moment for mails that should not come, or until `count` have come to `email`. */
async function mailsTo(sink: SmtpSink, email: string, count: number, ms = 5000): Promise<SinkMessage[]> {
  const started = Date.now();
  while (to(sink, email).length < count && Date.now() - started < ms) await sleep(50);
  await sleep(500); // and no more after them
  return to(sink, email);
}

function expectQuotaMail(m: SinkMessage, email: string, level: 80 | 100, baseUrl: string): void {
  expect(m.envelopeTo).toEqual([email]);
  expect(m.subject).toContain(`(${month()})`);
  // The 80% mail gives the count its sender saw: the 8th request's, or the 9th's when both came at once.
  if (level === 80) expect(m.text).toMatch(new RegExp(`has used [89] of its 10 requests for ${month()} \\(UTC\\), 80% of its quota`));
  else expect(m.text).toContain(`has used all 10 requests of its quota for ${month()} (UTC)`);
  expect(m.text).toContain(`${baseUrl}/dashboard/usage`);
  expect(m.text).toContain(`${baseUrl}/dashboard/billing`);
  expect(m.text).toContain(level === 80 ? 'kotasının %80’ini kullandı' : 'tamamını kullandı');
  expect(m.html).toContain(`href="${baseUrl}/dashboard/usage"`);
}

describe('quota mails, one server with two threads', () => {
  let sink: SmtpSink;
  let server: RunningServer;
  const email = 'quota@example.com';
  const quiet = 'quiet@example.com';
  let key = '';
  let quietKey = '';

  const api = async (k: string, i: number): Promise<number> => {
    const res = await fetch(`${server.baseUrl}/api/v1/qibla?lat=${i % 80}&lon=0`, { headers: { 'X-API-Key': k } });
    await res.arrayBuffer();
    return res.status;
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quota-mails-'));
    const plansFile = path.join(dataDir, 'plans.json');
    writeFileSync(plansFile, JSON.stringify(PLANS));
    key = await provisionKey(dataDir, email, 'trial');
    quietKey = await provisionKey(dataDir, quiet, 'trial');
    server = await startServer({ DATA_DIR: dataDir, PLANS_FILE: plansFile, SMTP_URL: sink.url, WORKERS: '2' });
  });
  afterAll(async () => {
    await server?.stop();
    await sink?.close();
  });

  it('sends nothing below 80%, the 80% mail once at the 8th request, the 100% mail once at the 10th, nothing after', async () => {
    for (let i = 0; i < 7; i++) expect(await api(key, i)).toBe(200);
    for (let i = 0; i < 7; i++) expect(await api(quietKey, i)).toBe(200);
    expect(await mailsTo(sink, email, 1, 1000)).toEqual([]);
    // The 8th and 9th at once (either thread may count the 8th).
    expect(await Promise.all([api(key, 7), api(key, 8)])).toEqual([200, 200]);
    const at80 = await mailsTo(sink, email, 1);
    expect(at80).toHaveLength(1);
    expect(eighty(at80[0])).toBe(true);
    expectQuotaMail(at80[0], email, 80, `http://localhost:${server.port}`);
    // The 10th uses the quota up; the rest are refused (429) and send nothing more.
    const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => api(key, 9 + i)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const both = await mailsTo(sink, email, 2);
    expect(both).toHaveLength(2);
    expect(both.filter(eighty)).toHaveLength(1);
    expect(both.filter(full)).toHaveLength(1);
    expectQuotaMail(both.find(full)!, email, 100, `http://localhost:${server.port}`);
    expect(to(sink, quiet)).toEqual([]);
  });

  it('a restart sends neither again this month (the claims are in the store)', async () => {
    const dataDir = server.dataDir;
    await server.stop();
    const plansFile = path.join(dataDir, 'plans.json');
    server = await startServer({ DATA_DIR: dataDir, PLANS_FILE: plansFile, SMTP_URL: sink.url, WORKERS: '2' });
    expect(await api(key, 0)).toBe(429);
    expect(await mailsTo(sink, email, 3, 1000)).toHaveLength(2);
  });
});

describe('quota mails, three servers on one Redis', () => {
  let sink: SmtpSink;
  let fleet: Fleet;
  beforeAll(async () => {
    sink = await startSmtpSink();
    fleet = await startFleet({ catalogDataDir: inject('catalogDataDir'), plans: PLANS, env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await fleet?.stop();
    await sink?.close();
  });

  it('each level’s mail is sent exactly once across the servers', async () => {
    const { key } = await fleet.createKey('fleet-quota@example.com', 'trial');
    for (let i = 0; i < 7; i++) expect((await fleet.request(`/api/v1/qibla?lat=${i}&lon=0`, { key })).status).toBe(200);
    expect(await mailsTo(sink, 'fleet-quota@example.com', 1, 1000)).toEqual([]);
    // The rest at once, spread over the three servers: each sees a count of its own past 80% or 100%.
    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => fleet.request(`/api/v1/qibla?lat=${10 + i}&lon=0`, { key })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(new Set(answers.map((a) => a.server)).size).toBe(3);
    const mails = await mailsTo(sink, 'fleet-quota@example.com', 2);
    expect(mails).toHaveLength(2);
    expect(mails.filter(eighty)).toHaveLength(1);
    expect(mails.filter(full)).toHaveLength(1);
    // More requests on every server: nothing more.
    for (let server = 0; server < 3; server++) expect((await fleet.request('/api/v1/qibla?lat=1&lon=1', { key, server })).status).toBe(429);
    expect(await mailsTo(sink, 'fleet-quota@example.com', 3, 1000)).toHaveLength(2);
  });
});
