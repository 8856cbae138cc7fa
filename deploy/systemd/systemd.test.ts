// The unit files in deploy/systemd/, checked by systemd's own tools (Debian's systemd-analyze, installed by `make
// systemd` when missing): `systemd-analyze verify` loads each as systemd would (unknown keys, bad values, a timer
// without its service, an ExecStart that is not executable all fail it) and must print nothing; `systemd-analyze
// security --offline` scores the sandbox. Only the paths marked ADAPT are replaced, by this checkout and this Node.js.
// The units are not started here: a container has no systemd as PID 1.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ANALYZE = '/usr/bin/systemd-analyze';
const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const UNITS = readdirSync(HERE).filter((name) => /\.(service|timer)$/.test(name)).sort();

function analyze(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(ANALYZE, args, { cwd }, (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** A unit's settings, by section and key (a key given twice keeps every value). */
function settings(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) section = header[1];
    else {
      const eq = line.indexOf('=');
      const key = `${section}.${line.slice(0, eq)}`;
      found.set(key, [...(found.get(key) ?? []), line.slice(eq + 1)]);
    }
  }
  return found;
}

/** The units as deploy/systemd/ has them, with the ADAPT paths pointing at this checkout and Node.js. */
function adapted(dir: string, name: string): string {
  const text = readFileSync(path.join(HERE, name), 'utf8');
  const local = text.replaceAll('/opt/prayer-times', ROOT.replace(/\/$/, '')).replaceAll('/usr/bin/node', process.execPath);
  writeFileSync(path.join(dir, name), local);
  return text;
}

describe('deploy/systemd', () => {
  let dir: string;
  const units = new Map<string, Map<string, string[]>>();

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'prayer-times-units-'));
    for (const name of UNITS) units.set(name, settings(adapted(dir, name)));
  });

  it('holds the server, the nightly precompute and the backup, each job with its timer', () => {
    expect(UNITS).toEqual([
      'prayer-times-backup.service',
      'prayer-times-backup.timer',
      'prayer-times-precompute.service',
      'prayer-times-precompute.timer',
      'prayer-times.service',
    ]);
  });

  it('passes systemd-analyze verify with nothing to say', async () => {
    const result = await analyze(['verify', ...UNITS.map((name) => `./${name}`)], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('verify is not vacuous: a unit with an unknown key, a bad calendar or a missing binary fails it', async () => {
    const broken = mkdtempSync(path.join(tmpdir(), 'prayer-times-units-broken-'));
    for (const name of UNITS) adapted(broken, name);
    const server = path.join(broken, 'prayer-times.service');
    writeFileSync(server, readFileSync(server, 'utf8').replace('Restart=always', 'Restart=always\nRestartAlways=yes').replace(process.execPath, '/nonexistent/node'));
    const timer = path.join(broken, 'prayer-times-precompute.timer');
    writeFileSync(timer, readFileSync(timer, 'utf8').replace(/^OnCalendar=.*$/m, 'OnCalendar=nightly-ish'));
    const result = await analyze(['verify', ...UNITS.map((name) => `./${name}`)], broken);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("Unknown key 'RestartAlways'");
    expect(result.stderr).toContain('Command /nonexistent/node is not executable');
    expect(result.stderr).toContain('Failed to parse calendar specification');
  });

  it('the server restarts whatever its exit, reads the environment file and runs sandboxed', () => {
    const unit = units.get('prayer-times.service')!;
    const one = (key: string) => unit.get(key)?.join(' ');
    expect(one('Service.Restart')).toBe('always');
    expect(one('Service.RestartSec')).toMatch(/^\d+$/);
    expect(one('Service.EnvironmentFile')).toBe('/etc/prayer-times/prayer-times.env');
    expect(one('Service.Environment')).toBe('DATA_DIR=/var/lib/prayer-times');
    expect(one('Service.User')).toBe('prayer-times');
    expect(one('Service.ExecStart')).toBe('/usr/bin/node --import tsx server/process/main.ts');
    expect(one('Service.KillSignal')).toBe('SIGTERM');
    for (const [key, value] of [
      ['ProtectSystem', 'strict'], ['ReadWritePaths', '/var/lib/prayer-times'], ['StateDirectory', 'prayer-times'], ['NoNewPrivileges', 'yes'],
      ['PrivateTmp', 'yes'], ['PrivateDevices', 'yes'], ['ProtectHome', 'yes'], ['CapabilityBoundingSet', ''], ['RestrictSUIDSGID', 'yes'],
    ]) expect(one(`Service.${key}`), key).toBe(value);
    expect(one('Install.WantedBy')).toBe('multi-user.target');
  });

  it('the nightly jobs are one-shot services on the same data directory, started by timers with a random delay and Persistent', () => {
    for (const job of ['prayer-times-precompute', 'prayer-times-backup']) {
      const service = units.get(`${job}.service`)!;
      expect(service.get('Service.Type')).toEqual(['oneshot']);
      expect(service.get('Service.User')).toEqual(['prayer-times']);
      expect(service.get('Service.Environment')).toEqual(['DATA_DIR=/var/lib/prayer-times']);
      expect(service.get('Service.EnvironmentFile')).toEqual(['/etc/prayer-times/prayer-times.env']);
      expect(service.get('Service.ProtectSystem')).toEqual(['strict']);
      expect(service.get('Service.NoNewPrivileges')).toEqual(['yes']);
      const timer = units.get(`${job}.timer`)!;
      expect(timer.get('Timer.OnCalendar')?.[0]).toMatch(/^\*-\*-\* \d\d:\d\d:00 UTC$/);
      expect(timer.get('Timer.RandomizedDelaySec')?.[0]).toMatch(/^\d+min$/);
      expect(timer.get('Timer.Persistent')).toEqual(['true']);
      expect(timer.get('Install.WantedBy')).toEqual(['timers.target']);
    }
    expect(units.get('prayer-times-precompute.service')!.get('Service.ExecStart')).toEqual(['/usr/bin/node --import tsx cli/main.ts precompute']);
  });

  it('each service scores OK or better in systemd-analyze security (offline)', async () => {
    for (const name of UNITS.filter((n) => n.endsWith('.service'))) {
      const result = await analyze(['security', '--offline=true', '--threshold=20', `./${name}`], dir);
      const level = /Overall exposure level for .*: (\d+\.\d) (\w+)/.exec(result.stdout);
      expect(level, result.stdout + result.stderr).not.toBeNull();
      expect(['SAFE', 'OK']).toContain(level![2]);
      expect(result.code).toBe(0);
    }
  });

  it('the example environment file sets only variables the server reads, with nothing secret filled in', () => {
    const env = readFileSync(path.join(HERE, 'prayer-times.env'), 'utf8');
    const set = env.split('\n').filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.slice(0, line.indexOf('=')));
    expect(set).toEqual(['HOST', 'PORT', 'TRUST_PROXY', 'PUBLIC_BASE_URL', 'LOG_LEVEL', 'METRICS_PORT', 'METRICS_HOST']);
    const docs = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => readFileSync(path.join(ROOT, 'docs', name), 'utf8')).join('\n');
    for (const name of env.match(/^#?([A-Z_]+)=/gm)!.map((s) => s.replace(/[#=]/g, ''))) expect(docs.includes(`\`${name}\``), `${name} is documented`).toBe(true);
  });
});
