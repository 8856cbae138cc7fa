// Start-up and shutdown of the API server.
import { loadConfig } from './config.js';
import { createApp, type ServerState } from './http.js';
import { flushLog, log, setLogLevel } from './log.js';
import { AccessControl } from './access.js';
import { AccountStore } from './accountStore.js';
import { PlaceCatalog } from './placeCatalog.js';
import { loadPlans } from './plans.js';
import { StoreFollower } from './storeFollower.js';
import { timetableCounts } from './timetables.js';
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
  store: undefined,
  health: () => ({
    status: 'ok',
    catalogBuiltAt: state.catalog?.builtAt ?? null,
    dataBuiltAt: state.store?.meta.builtAt ?? null,
    years: state.store?.meta.years ?? [],
    precomputed: state.store ? { build: state.store.name, scope: state.store.meta.scope, placeYears: state.store.meta.placeYears } : null,
    answers: { ...timetableCounts },
  }),
};

let access: AccessControl | undefined;
let accountStore: AccountStore | undefined;
if (process.env.ACCESS_CONTROL === 'off') {
  process.stderr.write('!! ACCESS_CONTROL=off: no API keys are checked and nothing is counted. For benchmarks only.\n');
  log('error', 'access_control_off', {});
} else {
  try {
    accountStore = AccountStore.open(config.dataDir);
    access = new AccessControl(accountStore, loadPlans(config.plansFile));
    access.start();
  } catch (error) {
    process.stderr.write(`error: cannot start: ${(error as Error).message}\n`);
    log('error', 'start_failed', { error: String(error) });
    flushLog();
    process.exit(1);
  }
}

const httpOptions = { state, access, publicBaseUrl: config.publicBaseUrl ?? `http://localhost:${config.port}` };
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
const storeFollower = new StoreFollower(config.dataDir, state);
storeFollower.start();

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

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Requests are answered synchronously, so none is half done when a signal handler runs; the counts of every
  // answered request are written before the process ends.
  state.serving = false;
  if (listenSocket) uWS.us_listen_socket_close(listenSocket as never);
  try {
    await access?.stop();
    await accountStore?.close();
    await storeFollower.stop();
  } catch (error) {
    log('error', 'stop_failed', { error: String(error) });
  }
  log('warn', 'stopped', { signal });
  flushLog();
  process.exit(0);
}

process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
