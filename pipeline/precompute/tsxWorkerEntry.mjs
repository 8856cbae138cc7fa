// A pipeline worker whose code could not be compiled starts from this JavaScript file: under Node 20 a worker's first
// module is loaded before the `--import tsx` hooks apply, so tsx is registered here and the TypeScript module
// (`workerData.tsxModule`) imported after it.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.tsxModule);
