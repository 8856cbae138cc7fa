// Loads uWebSockets.js and tells whether its native binary loaded. The package silently falls back to a slow
// JavaScript implementation when the binary does not fit the runtime; we detect that and say so loudly.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as UWS from 'uWebSockets.js';

const require = createRequire(import.meta.url);

export const uWS: typeof UWS = require('uWebSockets.js');

const packageDir = path.dirname(path.dirname(require.resolve('uWebSockets.js')));
const fallbackEntry = path.join(packageDir, 'dist', 'index.js');

/** True when the JavaScript fallback was loaded instead of the native binary. */
export const usingFallback: boolean = fallbackEntry in require.cache;

/**
 * Closes the app's listen sockets and every open connection, so the thread's event loop can end. The build we use
 * has App.close() (upstream since v20.34) but its type declarations do not; a worker thread that ended with
 * connections open would abort the whole process.
 */
export function closeApp(app: UWS.TemplatedApp): void {
  (app as UWS.TemplatedApp & { close(): void }).close();
}
