import { readFileSync } from 'node:fs';
import { precompute } from '../../pipeline/precompute.js';
const st = () => { (globalThis as any).gc?.(); const s = readFileSync('/proc/self/status', 'utf8'); const g = (k: string) => +s.match(new RegExp(k + ':\\s+(\\d+)'))![1] / 1024; const m = process.memoryUsage(); return `anon ${g('RssAnon').toFixed(0)} file ${g('RssFile').toFixed(0)} heapTotal ${(m.heapTotal / 1e6).toFixed(0)} heapUsed ${(m.heapUsed / 1e6).toFixed(0)} ext ${(m.external / 1e6).toFixed(0)} ab ${(m.arrayBuffers / 1e6).toFixed(0)}`; };
console.log('start', st());
const t = setInterval(() => console.log(st()), Number(process.env.EVERY ?? 3000));
const s = await precompute({ dataDir: '/tmp/pcd', years: [2026], methods: 'default', madhabs: 'default', scope: process.env.SCOPE ?? 'top:40000' });
clearInterval(t);
console.log('end', st(), s.seconds);
