// Where a kind of request spends its time in a serving thread: a server as `make run` starts it but with one serving
// thread and V8's CPU profiler on (`node --cpu-prof`), wrk sending the request (a path, or a new point on every
// request from scripts/wrk/newPoint.lua), then each sample of the serving thread's profile put in the phase of the
// innermost frame on its stack that belongs to one: the edge (uWebSockets.js and server/edge), the key check and
// limits, parameters and resolving the place, the zone of a point, the nearest place, the computation, the answer
// and its JSON (server/timetables), the rest. Idle samples are left out; the shares are of the thread's busy time.
// Usage: npm run profile:requests -- <path | near:<path start> | globe:<path start>> [seconds, default 8] [checkout]
//   (a checkout: another `git worktree` whose server to profile, for a before-and-after)
//   e.g. npm run profile:requests -- /api/v1/times?city=istanbul
//        npm run profile:requests -- 'near:/api/v1/month?year=2026&month=11&'
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompute } from '../pipeline/precompute/precompute.js';
import { dataDirWithCatalog, runCli } from '../testing/serverProcess.js';
import { requireCatalog } from './lib/catalog.js';
import { wrkTarget } from './lib/newPoints.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const [request, secondsArg, checkout] = process.argv.slice(2);
if (!request) {
  console.error('Usage: npm run profile:requests -- <path | near:<path start> | globe:<path start>> [seconds]');
  process.exit(2);
}
const SECONDS = Number(secondsArg ?? 8);
ensureWrk();
const { dataDir, catalog } = requireCatalog();
const dir = dataDirWithCatalog(dataDir);
// Istanbul is precomputed, as `make run`'s first store holds it (a request by city is answered from the store).
const thisYear = new Date().getUTCFullYear();
await precompute({ dataDir: dir, years: [thisYear, thisYear + 1], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
const work = mkdtempSync(path.join(tmpdir(), 'profile-requests-'));
const MAIN = checkout ? path.resolve(checkout, 'server/process/main.ts') : fileURLToPath(new URL('../server/process/main.ts', import.meta.url));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

// Serving threads run one compiled file (pipeline/precompute/threadBundle.ts) with a linked source map: a frame in
// it is named by the source file the map gives for its position.
const sourceMaps = new Map<string, SourceMap | undefined>();
function sourceOf({ url, lineNumber, columnNumber }: ProfileNode['callFrame']): string {
  if (!url.endsWith('thread.mjs')) return url;
  if (!sourceMaps.has(url)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(fileURLToPath(`${url}.map`), 'utf8')));
    } catch {
      map = undefined;
    }
    sourceMaps.set(url, map);
  }
  const entry = sourceMaps.get(url)?.findEntry(lineNumber, columnNumber) as { originalSource?: string } | undefined;
  return entry?.originalSource ?? url;
}

/** The phase a frame belongs to, or undefined when its caller's decides. */
function phaseOf(frame: ProfileNode['callFrame']): string | undefined {
  const { functionName } = frame;
  const url = sourceOf(frame);
  if (functionName === '(garbage collector)') return 'garbage collection';
  // Both layouts of the pipeline (in rooms, and flat before issue 28), for a before-and-after.
  if (/node_modules\/(geo-tz|geobuf|pbf|@turf)|\/(zoneAtPoint|borderCache|zoneIndex)\.ts/.test(url) || (functionName === 'zoneAt' && /places\/location/.test(url))) return 'zone of a point';
  if (/\/(nearestPlace|spatialIndex)\.ts/.test(url) || (functionName === 'nearest' && /places\//.test(url))) return 'nearest place';
  const computing = /pipeline\/(astronomy|store)\/|\/(adhanCore|adhanSunOfDate|solarDay|sunPosition|prayerTimes|highLatitude|methods|methodZones|hijri|dayRecord|timetableCodec|storedYear|qibla|localTime|transitionTable|tzCompile|calendarDate)\.ts|node_modules\/adhan/;
  if (computing.test(url)) return 'computation';
  // JSON.stringify is a builtin without a frame of its own: its time falls in the function that calls it.
  if (functionName === 'stringify' || /server\/timetables\/|renderedResponses/.test(url)) return 'the answer and its JSON';
  if (/server\/access\//.test(url)) return 'key check and limits';
  if (/server\/api\/(params|location|routes)|server\/places\//.test(url)) return 'parameters and resolving';
  if (/server\/edge\/|uWebSockets|uws/.test(url)) return 'edge (HTTP)';
  return undefined;
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** The phases of a profile's samples from `from` on (µs on the clock all of a process's profiles share). */
function summarise(whole: Profile, from: number): Map<string, number> {
  let at = whole.startTime;
  const profile = { nodes: whole.nodes, samples: whole.samples.filter((_, i) => (at += whole.timeDeltas[i]) >= from) };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const phaseOfNode = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = phaseOfNode.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const phase = node.callFrame.functionName === '(idle)' ? 'idle' : phaseOf(node.callFrame) ?? (parent.has(id) ? resolve(parent.get(id)!) : 'the rest');
    phaseOfNode.set(id, phase);
    return phase;
  };
  const counts = new Map<string, number>();
  for (const id of profile.samples) counts.set(resolve(id), (counts.get(resolve(id)) ?? 0) + 1);
  counts.delete('idle');
  // What "the rest" is made of (or, with PROFILE_PHASE, another phase), by the frame the samples were taken in.
  const rest = new Map<string, number>();
  for (const id of profile.samples) {
    if (resolve(id) !== (process.env.PROFILE_PHASE ?? 'the rest')) continue;
    const { callFrame } = byId.get(id)!;
    const where = `${callFrame.functionName || '(anonymous)'} ${sourceOf(callFrame).replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}`;
    rest.set(where, (rest.get(where) ?? 0) + 1);
  }
  restFrames.set(counts, rest);
  return counts;
}
const restFrames = new Map<Map<string, number>, Map<string, number>>();

const created = await runCli(['keys', 'create', '--email', 'profile@example.com', '--plan', 'business'], { DATA_DIR: dir });
const { key } = JSON.parse(created.stdout) as { key: string };
writeFileSync(path.join(dir, 'plans.json'), JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 } }));
const port = 20000 + Math.floor(Math.random() * 20000);
const server = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${work}`, '--import', 'tsx', MAIN], {
  env: { ...process.env, DATA_DIR: dir, PORT: String(port), WORKERS: '1', LOG_LEVEL: 'warn', PLANS_FILE: path.join(dir, 'plans.json') },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (let tries = 0; ; tries++) {
  const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
  if (ready) break;
  if (tries > 300) throw new Error('the server did not start');
  await new Promise((r) => setTimeout(r, 100));
}

const { url, options } = wrkTarget(base, request, catalog);
runWrk(url, { connections: 32, seconds: 2, headers: { 'X-API-Key': key }, ...options });
const result = runWrk(url, { connections: 32, seconds: SECONDS, headers: { 'X-API-Key': key }, ...options });
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));

// The serving thread's profile is the one with the most busy samples (the primary thread mostly waits).
// Only the measured run: the samples of its last SECONDS before the stop (start-up compiles modules for seconds).
const read = readdirSync(work).filter((f) => f.endsWith('.cpuprofile')).map((f) => JSON.parse(readFileSync(path.join(work, f), 'utf8')) as Profile);
const stoppedAt = Math.max(...read.map((p) => p.endTime));
const profiles = read.map((p) => summarise(p, stoppedAt - SECONDS * 1e6));
const busiest = profiles.sort((a, b) => [...b.values()].reduce((x, y) => x + y, 0) - [...a.values()].reduce((x, y) => x + y, 0))[0];
const total = [...busiest.values()].reduce((x, y) => x + y, 0);
console.log(`${request}: ${result.requestsPerSecond.toFixed(0)} req/s on one serving thread (wrk 1 thread, 32 connections, ${SECONDS} s, profiler on; ${result.non2xx} non-2xx)`);
console.log('| phase | share of the thread’s busy time |\n|---|---|');
for (const [phase, n] of [...busiest].sort((a, b) => b[1] - a[1])) console.log(`| ${phase} | ${((100 * n) / total).toFixed(1)}% |`);
const rest = [...(restFrames.get(busiest) ?? [])].sort((a, b) => b[1] - a[1]).slice(0, 8);
console.log(`the rest, by the frame sampled: ${rest.map(([where, n]) => `${where} ${((100 * n) / total).toFixed(1)}%`).join('; ')}`);
