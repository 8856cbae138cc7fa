// Summarises a V8 CPU profile (.cpuprofile, from `node --cpu-prof`): the functions with the most self time, and the
// self time by package or project folder, as shares of the samples. Never prints the profile itself.
// Usage: node --import tsx scripts/profile-summary.ts <file.cpuprofile> [top, default 25]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('Usage: node --import tsx scripts/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
const total = profile.samples.length;

/** node_modules/<package>, or the project folder (server/places), or a V8/Node label. */
function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1];
  if (url.startsWith('node:')) return url;
  const project = /\/(server\/[^/]+|pipeline(?:\/catalog)?|scripts|testing)\//.exec(url);
  return project ? project[1] : url.replace(/^.*\//, '');
}
const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
for (const [id, count] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const key = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}:${lineNumber + 1}` : ''}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + count);
  const a = area(url, functionName);
  byArea.set(a, (byArea.get(a) ?? 0) + count);
}
const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
const top = Number(topArg ?? 25);
console.log(`${file}: ${total} samples\n\nself time by function:`);
for (const [k, n] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(n)}  ${k}`);
console.log('\nself time by package or folder:');
for (const [k, n] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(n)}  ${k}`);
