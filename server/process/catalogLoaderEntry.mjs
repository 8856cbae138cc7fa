// The catalog loader starts from this JavaScript file, for the reason httpWorkerEntry.mjs gives.
import { register } from 'tsx/esm/api';

register();
await import('./catalogLoader.ts');
