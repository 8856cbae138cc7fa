// A serving thread started by the primary (main.ts): serves until told to stop, and says so at each step; with the
// metrics on, it answers the primary's request for its own figures at each scrape (threadMetrics.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { flushLog, log } from '../log.js';
import { serve, type ServeOptions } from './serve.js';
import type { BundleStatus } from '../timetables/bundleFollower.js';
import { REQUEST_KINDS } from './requestKinds.js';
import type { ThreadReport } from './threadMetrics.js';
import { METHODS_FINGERPRINT } from '../../pipeline/astronomy/methods.js';

export type ToWorker = { type: 'stop' } | { type: 'bundle'; status: BundleStatus } | { type: 'metrics'; id: number };
/** What a thread tells the primary once it listens: the table of request kinds its counters use, and its methods. */
export interface ThreadAbout {
  requestKinds: ReadonlyArray<{ surface: string; operation: string }>;
  methodsFingerprint: string;
}
export type FromWorker =
  | { type: 'listening'; port: number; about: ThreadAbout }
  | { type: 'failed'; error: string }
  | { type: 'stopped' }
  | { type: 'metrics'; id: number; report: ThreadReport | undefined };

const port = parentPort!;
const say = (message: FromWorker): void => port.postMessage(message);

try {
  const serving = await serve(workerData as ServeOptions);
  port.on('message', (message: ToWorker) => {
    if (message.type === 'bundle') return serving.bundleStatus(message.status);
    if (message.type === 'metrics') {
      serving.report().then(
        (report) => say({ type: 'metrics', id: message.id, report }),
        (error) => {
          log('error', 'metrics_report_failed', { error: String(error) });
          say({ type: 'metrics', id: message.id, report: undefined });
        },
      );
      return;
    }
    if (message.type !== 'stop') return;
    serving.stop().then(
      () => {
        flushLog();
        say({ type: 'stopped' });
        port.close(); // nothing is left open: the thread ends
      },
      (error) => log('error', 'stop_failed', { error: String(error) }),
    );
  });
  say({ type: 'listening', port: serving.port, about: { requestKinds: REQUEST_KINDS, methodsFingerprint: METHODS_FINGERPRINT } });
} catch (error) {
  flushLog();
  say({ type: 'failed', error: (error as Error).message });
  port.close();
}
