// The start-up banner's sample curl works as printed, and never shows a key.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { bannerAddresses } from './bannerAddresses.js';

const hasCurl = ['/usr/bin/curl', '/bin/curl', '/usr/local/bin/curl'].some((p) => existsSync(p));

/** The banner's curl line (printed right after the listening line). */
async function bannerCurl(server: RunningServer): Promise<string> {
  for (let waited = 0; waited < 5000; waited += 50) {
    const line = server.output.find((l) => l.startsWith('  curl '));
    if (line) return line.trim();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no curl in the banner:\n${server.output.join('\n')}`);
}

/** The banner's first line (the addresses), printed with the curl. */
async function bannerLine(server: RunningServer): Promise<string> {
  await bannerCurl(server);
  return server.output.find((l) => l.startsWith('Serving on '))!;
}

describe('the start-up banner', () => {
  it.skipIf(!hasCurl)('with a demo key: its curl reads the key file, answers 200, and no output shows the key', async () => {
    // A directory with a quote in its name: the printed command must still work in a shell.
    const dir = mkdtempSync(path.join(tmpdir(), "prayer-times-banner-o'clock-"));
    const demo = await runCli(['demo'], { DATA_DIR: dir });
    expect(demo.code).toBe(0);
    const key = readFileSync(path.join(dir, 'demo-key.txt'), 'utf8').trim();
    // debug: a log line for every request (info samples them), so that the key's absence from the log means something.
    const server = await startServer({ DATA_DIR: dir, LOG_LEVEL: 'debug' });
    try {
      const curl = await bannerCurl(server);
      expect(curl).toContain('X-API-Key: $(cat ');
      expect(curl).toContain(`${server.port}/api/v1/times?lat=41.0082&lon=28.9784`);
      const answer = JSON.parse(execFileSync('sh', ['-c', `${curl} --silent --show-error --fail`], { encoding: 'utf8' }));
      expect(answer.times.fajr).toMatch(/^\d\d:\d\d$/);
      await new Promise((r) => setTimeout(r, 300)); // the request's log line is flushed within 100 ms
      expect(server.output.some((l) => l.includes('"path":"/api/v1/times"') && l.includes('"status":200'))).toBe(true);
      expect(server.output.join('\n')).not.toContain(key);
      expect(server.output.join('\n')).not.toContain(key.slice(3));
    } finally {
      await server.stop();
    }
  });

  it('without a key yet: says how to make one, and shows where the key goes', async () => {
    const server = await startServer();
    try {
      const curl = await bannerCurl(server);
      expect(curl).toMatch(/^curl -H 'X-API-Key: mk_your_key' 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/times\?lat=41\.0082&lon=28\.9784'$/);
      expect(server.output.join('\n')).toContain('`npm run cli -- demo` makes one');
    } finally {
      await server.stop();
    }
  });

  it('prints the site and the dashboard at localhost, where passkeys work, and the dashboard there names itself the relying party', async () => {
    const server = await startServer();
    try {
      const line = await bannerLine(server);
      const local = `http://localhost:${server.port}`;
      expect(line).toContain(`Serving on http://127.0.0.1:${server.port} `);
      expect(line).toContain(`The site: ${local}/en and ${local}/tr, the docs: ${local}/docs, the dashboard: ${local}/dashboard (localhost, not 127.0.0.1: passkeys`);
      // The address works as printed, and its passkey blocks run there (the relying party's origin is the page's).
      const dashboard = /the dashboard: (\S+)/.exec(line)![1];
      const page = await fetch(dashboard);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain(`data-rp-origin="${new URL(dashboard).origin}"`);
      // The sign-in options name localhost as the relying party.
      const signIn = await fetch(`${local}/dashboard/sign-in`);
      const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const csrf = /data-csrf="([^"]+)"/.exec(await signIn.text())![1];
      const options = await fetch(`${local}/dashboard/sign-in/passkey/options`, { method: 'POST', headers: { cookie, origin: local, 'content-type': 'application/json', 'x-csrf-token': csrf }, body: '{}' });
      expect(options.status).toBe(200);
      expect(((await options.json()) as { rpId: string }).rpId).toBe(new URL(dashboard).hostname);
    } finally {
      await server.stop();
    }
  });

  it('prints PUBLIC_BASE_URL for the browser when it is set, the listening address for the API', async () => {
    const server = await startServer({ PUBLIC_BASE_URL: 'https://prayer-times.example' });
    try {
      const line = await bannerLine(server);
      expect(line).toContain('the dashboard: https://prayer-times.example/dashboard.');
      expect(await bannerCurl(server)).toContain(`'http://127.0.0.1:${server.port}/api/v1/times?`);
    } finally {
      await server.stop();
    }
  });

  it('chooses the addresses by where the server listens', () => {
    expect(bannerAddresses('127.0.0.1', 8080, undefined)).toMatchObject({ api: 'http://127.0.0.1:8080', browser: 'http://localhost:8080' });
    expect(bannerAddresses('0.0.0.0', 8080, undefined)).toMatchObject({ api: 'http://127.0.0.1:8080', browser: 'http://localhost:8080' });
    expect(bannerAddresses('::', 8080, undefined)).toMatchObject({ api: 'http://127.0.0.1:8080', browser: 'http://localhost:8080' });
    expect(bannerAddresses('::1', 8080, undefined)).toMatchObject({ api: 'http://[::1]:8080', browser: 'http://localhost:8080' });
    // A single other address: localhost would not reach it, so the page is printed there, with what passkeys need.
    const lan = bannerAddresses('192.0.2.7', 8080, undefined);
    expect(lan).toMatchObject({ api: 'http://192.0.2.7:8080', browser: 'http://192.0.2.7:8080' });
    expect(lan.note).toContain('PUBLIC_BASE_URL');
    expect(bannerAddresses('0.0.0.0', 8080, 'https://prayer-times.example')).toEqual({ api: 'http://127.0.0.1:8080', browser: 'https://prayer-times.example', note: '' });
  });
});
