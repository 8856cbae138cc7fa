// Worker threads of the pipeline (the precompute's, the one that chooses its places), started from their code
// compiled into one JavaScript file (threadBundle.ts): such a worker starts sooner and has no module-hooks thread
// of its own (about 33 MB each under tsx). Should compiling fail, a worker loads its TypeScript through tsx.
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { bundleForThread } from './threadBundle.js';

const compiled = new Map<string, Promise<URL | undefined>>();

/** Starts `module` (a worker module of this project) in a new worker; its code is compiled once per process. */
export async function startPipelineWorker(module: URL, options: WorkerOptions = {}): Promise<Worker> {
  let entry = compiled.get(module.href);
  if (!entry) {
    entry = bundleForThread(module).catch((error: unknown) => {
      process.emitWarning(`${module.pathname}: loading its TypeScript through tsx, compiling it failed (${String(error)})`);
      return undefined;
    });
    compiled.set(module.href, entry);
  }
  const url = await entry;
  if (url) return new Worker(url, options);
  const workerData = { ...(options.workerData as object | undefined), tsxModule: module.href };
  return new Worker(new URL('./tsxWorkerEntry.mjs', import.meta.url), { ...options, workerData });
}
