// Start-up and shutdown of the API server.
import { loadConfig } from './config.js';
import { createApp, type ServerState } from './http.js';
import { flushLog, log, setLogLevel } from './log.js';
import { PlaceCatalog } from './placeCatalog.js';
import { usingFallback, uWS } from './uws.js';

const config = loadConfig();
setLogLevel(config.logLevel);

if (usingFallback) {
  const banner = '!'.repeat(78);
  process.stderr.write(
    `${banner}\n!! uWebSockets.js could not load its native binary for this Node.js (ABI ${process.versions.modules}).\n` +
      `!! It fell back to its slow JavaScript implementation: expect a fraction of the normal throughput.\n${banner}\n`,
  );
  log('error', 'uws_fallback', { abi: process.versions.modules, node: process.version });
}

const state: ServerState = {
  serving: false,
  catalog: undefined,
  health: () => ({ status: 'ok', catalogBuiltAt: state.catalog?.builtAt ?? null, dataBuiltAt: null, years: [] }),
};

const httpOptions = { state, publicBaseUrl: config.publicBaseUrl ?? `http://localhost:${config.port}` };
const app = createApp(httpOptions);

const catalogStarted = performance.now();
try {
  state.catalog = PlaceCatalog.load(config.dataDir, { publicBaseUrl: () => httpOptions.publicBaseUrl });
  if (state.catalog) {
    log('warn', 'catalog_loaded', { places: state.catalog.places.length, builtAt: state.catalog.builtAt, ms: Math.round(performance.now() - catalogStarted) });
  } else {
    log('warn', 'catalog_missing', { dataDir: config.dataDir, hint: 'npm run cli -- catalog build; city= and /cities answer 503 until then' });
  }
} catch (error) {
  log('error', 'catalog_unreadable', { dataDir: config.dataDir, error: String(error) });
}

let listenSocket: unknown;
app.listen(config.host, config.port, (socket) => {
  if (!socket) {
    log('error', 'listen_failed', { host: config.host, port: config.port });
    flushLog();
    process.exit(1);
  }
  listenSocket = socket;
  state.serving = true;
  const port = uWS.us_socket_local_port(socket);
  if (!config.publicBaseUrl) httpOptions.publicBaseUrl = `http://localhost:${port}`;
  const url = `http://${config.host}:${port}`;
  log('warn', 'listening', { host: config.host, port, url, nativeUws: !usingFallback });
  process.stdout.write(`\nServing on ${url}. Try:\n  curl '${url}/api/v1/times?lat=41.0082&lon=28.9784'\n\n`);
});

function stop(signal: string): void {
  // Requests are answered synchronously, so none is half done when a signal handler runs.
  state.serving = false;
  if (listenSocket) uWS.us_listen_socket_close(listenSocket as never);
  log('warn', 'stopped', { signal });
  flushLog();
  process.exit(0);
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
