// Serving threads start from this JavaScript file: under Node 20 a worker's first module is loaded before the
// `--import tsx` hooks apply, so tsx is registered here and the TypeScript worker imported after it.
import { register } from 'tsx/esm/api';

register();
await import('./httpWorker.ts');
