// A serving thread started by the primary (main.ts): serves until told to stop, and says so at each step.
import { parentPort, workerData } from 'node:worker_threads';
import { flushLog, log } from '../log.js';
import { serve, type ServeOptions } from './serve.js';
import type { BundleStatus } from '../timetables/bundleFollower.js';

export type ToWorker = { type: 'stop' } | { type: 'bundle'; status: BundleStatus };
export type FromWorker = { type: 'listening'; port: number } | { type: 'failed'; error: string } | { type: 'stopped' };

const port = parentPort!;
const say = (message: FromWorker): void => port.postMessage(message);

try {
  const serving = await serve(workerData as ServeOptions);
  port.on('message', (message: ToWorker) => {
    if (message.type === 'bundle') return serving.bundleStatus(message.status);
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
  say({ type: 'listening', port: serving.port });
} catch (error) {
  flushLog();
  say({ type: 'failed', error: (error as Error).message });
  port.close();
}
