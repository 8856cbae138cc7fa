// The start-up banner's sample curl works as printed, and never shows a key.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';

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
});
