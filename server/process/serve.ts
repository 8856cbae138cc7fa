// One serving thread: the process's shared catalog (attached, not copied), its own store follower, key mirror and
// uWebSockets.js app, listening on the shared port (the kernel spreads connections over the threads' listen
// sockets). Counting is shared (sharedUsage.ts).
import { TZDATA_SOURCE, TZDATA_VERSION } from '../../pipeline/zones/zoneRules.js';
import type { Config } from './config.js';
import { AccessControl } from '../access/access.js';
import { QuotaAlerts } from '../access/quotaAlerts.js';
import { quotaMessage } from '../dashboard/mail/quotaMessage.js';
import { openStores } from '../accounts/openStores.js';
import { answerCounts, shareAnswerCounts, uncounted } from '../timetables/answerCounts.js';
import { apiSurface, KEY_USAGE_OPERATIONS, type ServerState } from '../api/apiSurface.js';
import { mcpSurface } from '../api/mcpSurface.js';
import { answerOperation } from '../api/operations.js';
import { openApiDocument } from '../api/openapi.js';
import { siteSurface } from '../site/siteSurface.js';
import { billingServices } from '../dashboard/billing/billingServices.js';
import { dashboardSurface } from '../dashboard/dashboardSurface.js';
import { createMailer } from '../dashboard/mail/mailer.js';
import { createEdge } from '../edge/edge.js';
import { log, setLogLevel } from '../log.js';
import { allowedOrigins } from '../api/mcp.js';
import { PlaceCatalog } from '../places/placeCatalog.js';
import type { SharedCatalog } from '../places/catalogTables.js';
import type { SharedZoneIndex } from '../../pipeline/zones/zoneIndex.js';
import { useZoneIndex } from '../../pipeline/zones/zoneAtPoint.js';
import { loadPlans } from '../accounts/plans.js';
import { SharedUsage } from '../access/sharedUsage.js';
import { openUsageLedger, type OpenedUsageLedger } from '../access/openUsageLedger.js';
import { StoreFollower } from '../timetables/storeFollower.js';
import type { BundleStatus } from '../timetables/bundleFollower.js';
import { readiness } from '../timetables/readiness.js';
import { closeApp, uWS } from '../edge/uws.js';
import { attachThreadCounters } from '../threadCounters.js';
import { countAnswered } from './requestKinds.js';
import { threadRuntimeMetrics, type ThreadReport } from './threadMetrics.js';

/** How long a stop waits for answers in flight before closing the connections. */
const STOP_GRACE_MS = 5000;

export interface ServeOptions {
  config: Config;
  /** This thread's number, from 0. */
  thread: number;
  /** The shared usage table; undefined when access control is off (benchmarks only). */
  usageBuffer: SharedArrayBuffer | undefined;
  answerCountsBuffer: SharedArrayBuffer;
  /** The metrics' counters of every serving thread (threadCounters.ts); this thread counts in its slot. */
  countersBuffer: SharedArrayBuffer;
  /** The catalog in shared memory, read once by the primary; undefined when there is none. */
  catalog: SharedCatalog | undefined;
  /** The zone index in shared memory, read with the catalog; undefined: zones come from geo-tz itself. */
  zones?: SharedZoneIndex;
  /** The port to listen on, claimed by the primary (portClaim.ts) and shared by every serving thread. */
  port: number;
}

export interface Serving {
  port: number;
  /** What the primary's bundle follower says (STORE_URL), for /readyz and /healthz. */
  bundleStatus(status: BundleStatus): void;
  /** This thread's own figures for a scrape (threadMetrics.ts); with the metrics off, only the store's state. */
  report(): Promise<ThreadReport>;
  /** Stops listening, closes every connection and what this thread opened. */
  stop(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<Serving> {
  const { config } = options;
  setLogLevel(config.logLevel);
  shareAnswerCounts(options.answerCountsBuffer, options.thread);
  attachThreadCounters(options.countersBuffer, options.thread);
  // With the metrics off nothing of theirs runs: no hook on the request path, no collectors.
  const runtimeMetrics = config.metrics ? threadRuntimeMetrics() : undefined;
  let bundle: BundleStatus | undefined;
  const state: ServerState = {
    serving: false,
    catalog: undefined,
    store: undefined,
    storeProblem: undefined,
    storeSetAside: undefined,
    storeReadFailed: (error) => storeFollower.readFailed(error),
    health: () => ({
      status: state.storeProblem === undefined ? 'ok' : 'degraded',
      ...(state.storeProblem === undefined ? {} : { storeProblem: state.storeProblem }),
      tzdata: TZDATA_VERSION,
      tzdataSource: TZDATA_SOURCE,
      catalogBuiltAt: state.catalog?.builtAt ?? null,
      dataBuiltAt: state.store?.meta.builtAt ?? null,
      years: state.store?.meta.years ?? [],
      precomputed: state.store ? { build: state.store.name, scope: state.store.meta.scope, placeYears: state.store.meta.placeYears, tzdata: state.store.meta.tzdata } : null,
      ...(state.storeSetAside === undefined ? {} : { storeSetAside: state.storeSetAside }),
      ...(config.fleet.storeUrl ? { bundle: bundle ?? null } : {}),
      answers: answerCounts(),
    }),
    readiness: () =>
      readiness({
        serving: state.serving,
        build: state.store?.name,
        storeProblem: state.storeProblem,
        storeSetAside: state.storeSetAside,
        followsStoreUrl: config.fleet.storeUrl !== undefined,
        bundle,
      }),
  };

  // Each thread opens its own stores (embedded LMDB, or Redis with REDIS_URL) and mirrors keys and accounts from its
  // account store; only the primary writes usage.
  const plans = loadPlans(config.plansFile);
  const stores = await openStores(config, `thread-${options.thread}`);
  let access: AccessControl | undefined;
  let usageLedger: OpenedUsageLedger | undefined;
  try {
    // Counting: the shared table, or Redis in fleet mode (openUsageLedger.ts).
    usageLedger = options.usageBuffer && (await openUsageLedger(config.fleet, SharedUsage.attach(options.usageBuffer), `thread-${options.thread}`));
    access = usageLedger && new AccessControl(stores.accounts, plans, usageLedger.ledger, KEY_USAGE_OPERATIONS);
  } catch (error) {
    await usageLedger?.close();
    await stores.close();
    throw error;
  }
  access?.start();

  const publicBaseUrl = config.publicBaseUrl ?? `http://localhost:${options.port}`;
  const httpOptions = { state, access, publicBaseUrl, mcpOrigins: allowedOrigins(publicBaseUrl, options.port, config.mcpAllowedOrigins), now: Date.now };
  // The surfaces read httpOptions at each request: the base URL and origins are settled once the port is known.
  // The site reads the API's operations and OpenAPI document through these functions: the same handlers, no import
  // between the surfaces.
  const site = siteSurface({
    get publicBaseUrl() {
      return httpOptions.publicBaseUrl;
    },
    state,
    plans,
    now: Date.now,
    pageCacheBytes: config.pageCacheMb * 1024 * 1024,
    data: {
      answer: (operationId, query, now) =>
        answerOperation(operationId, query, { now, catalog: state.catalog, store: state.store, storeProblem: state.storeProblem, storeReadFailed: state.storeReadFailed }),
      openApi: (base) => openApiDocument(base) as Record<string, unknown>,
    },
  });
  // The dashboard: the same stores as the key mirror's, and mail.
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir });
  // The quota mails at 80% and 100% of the month go through the same mailer (access/quotaAlerts.ts).
  access?.useQuotaAlerts(new QuotaAlerts(stores.accounts, (alert) => mailer.send(quotaMessage(alert, httpOptions.publicBaseUrl))));
  // Billing (BILLING_PROVIDER): the local test provider delivers its signed events to this server's own webhook.
  let ownWebhookUrl = '';
  const billing = billingServices(stores.billing, config.dataDir, process.env, () => ownWebhookUrl);
  const dashboard = dashboardSurface({
    accounts: stores.accounts,
    identity: stores.identity,
    passkeys: stores.passkeys,
    mailer,
    plans,
    publicBaseUrl: () => httpOptions.publicBaseUrl,
    allowedOrigins: () => dashboardOrigins,
    now: Date.now,
    signInTtlMs: config.signInTtlSeconds * 1000,
    currentUsage: access && ((account, now) => access!.usageOf(account, now)),
    billing,
  });
  let dashboardOrigins: string[] = [];
  // In the order requestKinds.ts's SURFACES names them: the metrics know a surface by its index here.
  const edge = createEdge([mcpSurface(httpOptions), apiSurface(httpOptions), site, dashboard], {
    publicBaseUrl: () => httpOptions.publicBaseUrl,
    trustProxy: config.trustProxy,
    answered: config.metrics ? countAnswered : undefined,
  });
  const app = edge.app;

  if (options.catalog) state.catalog = new PlaceCatalog(options.catalog, { publicBaseUrl: () => httpOptions.publicBaseUrl });
  useZoneIndex(options.zones);
  const storeFollower = new StoreFollower(config.dataDir, state, options.thread);
  storeFollower.start();
  // What the first requests would otherwise pay for (the site's homes and a place page), before taking any; the
  // answers it computes are not the clients', and /healthz does not count them.
  uncounted(() => edge.warm());

  const port = await new Promise<number>((resolve, reject) => {
    app.listen(config.host, options.port, (socket) => {
      if (!socket) reject(new Error(`cannot listen on ${config.host}:${options.port}`));
      else resolve(uWS.us_socket_local_port(socket));
    });
  });
  if (!config.publicBaseUrl) httpOptions.publicBaseUrl = `http://localhost:${port}`;
  const ownHost = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  ownWebhookUrl = `http://${ownHost}:${port}/webhooks/billing`;
  httpOptions.mcpOrigins = allowedOrigins(httpOptions.publicBaseUrl, port, config.mcpAllowedOrigins);
  // A dashboard POST comes from PUBLIC_BASE_URL's origin, or (unset) from the server's own on loopback.
  dashboardOrigins = config.publicBaseUrl ? [new URL(config.publicBaseUrl).origin] : [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  state.serving = true;

  return {
    port,
    bundleStatus(status) {
      bundle = status;
    },
    async report() {
      const store = state.store;
      return {
        runtime: runtimeMetrics ? await runtimeMetrics.collect() : [],
        store: { build: store?.name, builtAt: store?.meta.builtAt, problem: state.storeProblem !== undefined, setAside: state.storeSetAside !== undefined },
      };
    },
    async stop() {
      // New API requests get 503 from here on; answers in flight (MCP's) may finish first.
      state.serving = false;
      await edge.drain(STOP_GRACE_MS);
      closeApp(app);
      await access?.stop();
      await usageLedger?.close();
      dashboard.close();
      mailer.close();
      await billing.close();
      await stores.close();
      await storeFollower.stop();
    },
  };
}
