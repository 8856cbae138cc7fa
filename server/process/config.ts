// Configuration from the environment (contract, "Operator interface"); the CLI reads the same variables.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseTrustedProxies, type TrustedRange } from '../edge/clientAddress.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset when PUBLIC_BASE_URL is not given: the server then uses http://localhost:<bound port>. */
  publicBaseUrl: string | undefined;
  plansFile: string | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Serving threads (WORKERS, default one per core): each runs its own uWebSockets.js app on the same port. */
  workers: number;
  /** The old-generation heap budget of each serving thread in MB (THREAD_HEAP_MB). */
  threadHeapMb: number;
  /** Browser origins allowed on /mcp besides PUBLIC_BASE_URL's and loopback's (MCP_ALLOWED_ORIGINS), normalised. */
  mcpAllowedOrigins: string[];
  /** Memory for rendered site pages, per serving thread, in MB (PAGE_CACHE_MB, default 64). */
  pageCacheMb: number;
  /** The dashboard's mail: SMTP_URL (`smtp://user:pass@host:port`); unset, messages go to DATA_DIR/outbox/. */
  smtpUrl: string | undefined;
  /** MAIL_FROM, the sender (default `Prayer Times <no-reply@<host of PUBLIC_BASE_URL, or localhost>>`). */
  mailFrom: string;
  /** How long a sign-in code and link work, in seconds (SIGN_IN_TTL_SECONDS: for tests only; default 600). */
  signInTtlSeconds: number;
  /** Fleet mode (REDIS_URL and its settings); the CLI reads the same. */
  fleet: FleetSettings;
  /**
   * TRUST_PROXY: the reverse proxies whose X-Forwarded-For is believed (addresses and CIDR ranges); empty, none: the
   * client is the connection's peer (docs/operations.md, "Behind a reverse proxy").
   */
  trustProxy: TrustedRange[];
  /**
   * METRICS_PORT and METRICS_HOST: Prometheus metrics on a listener of their own (docs/operations.md, "Metrics");
   * undefined (METRICS_PORT unset) switches them off, the hook on the request path included.
   */
  metrics: { port: number; host: string } | undefined;
}

/** What fleet mode needs (contract, "Fleet mode"); without REDIS_URL the server is the embedded default. */
export interface FleetSettings {
  /** REDIS_URL (`redis://[user:pass@]host:port[/db]` or `rediss://`): unset, everything stays embedded in DATA_DIR. */
  redisUrl: string | undefined;
  /** LIMITS_ON_REDIS_FAILURE: count on this server and merge back (`local`, default), let through (`open`), refuse (`closed`). */
  limitsOnRedisFailure: LimitsOnRedisFailure;
  /** REDIS_COMMAND_TIMEOUT_MS (default 250): no request waits longer than this on Redis. */
  redisCommandTimeoutMs: number;
  /** STORE_URL: where published store bundles are fetched from (a directory or an http(s) location); unset, none. */
  storeUrl: string | undefined;
  /** STORE_POLL_SECONDS (default 30, 1..3600): how often a server with STORE_URL reads the latest bundle's pointer. */
  storePollSeconds: number;
}

export const LIMITS_ON_REDIS_FAILURE = ['local', 'open', 'closed'] as const;
export type LimitsOnRedisFailure = (typeof LIMITS_ON_REDIS_FAILURE)[number];

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** MCP_ALLOWED_ORIGINS: comma-separated origins (`https://app.example.com`), each normalised as browsers send it. */
function parseOrigins(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  return entries.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      throw new Error(`MCP_ALLOWED_ORIGINS must be comma-separated origins such as https://app.example.com (scheme, host and port only), not ${entry}`);
    }
    return url.origin;
  });
}

/** DATA_DIR, absolute: all that the operator commands need (a bad serving setting must not stop `catalog build`). */
export function dataDirFrom(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DATA_DIR || './data');
}

/** REDIS_URL, LIMITS_ON_REDIS_FAILURE, REDIS_COMMAND_TIMEOUT_MS, STORE_URL and STORE_POLL_SECONDS, checked. */
export function fleetSettingsFrom(env: NodeJS.ProcessEnv = process.env): FleetSettings {
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s/]+(\/\d{1,2})?\/?$/.test(redisUrl)) {
    throw new Error('REDIS_URL must look like redis://[user:password@]host:port[/db] (or rediss://)');
  }
  const failure = (env.LIMITS_ON_REDIS_FAILURE || 'local').toLowerCase();
  if (!(LIMITS_ON_REDIS_FAILURE as readonly string[]).includes(failure)) {
    throw new Error(`LIMITS_ON_REDIS_FAILURE must be one of ${LIMITS_ON_REDIS_FAILURE.join(', ')}, not ${env.LIMITS_ON_REDIS_FAILURE}`);
  }
  const timeout = env.REDIS_COMMAND_TIMEOUT_MS === undefined || env.REDIS_COMMAND_TIMEOUT_MS === '' ? 250 : Number(env.REDIS_COMMAND_TIMEOUT_MS);
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 60_000) throw new Error(`REDIS_COMMAND_TIMEOUT_MS must be 1..60000, not ${env.REDIS_COMMAND_TIMEOUT_MS}`);
  const storeUrl = env.STORE_URL || undefined;
  if (storeUrl !== undefined && /^[a-z][a-z\d+.-]*:\/\//i.test(storeUrl) && !/^https?:\/\/[^\s/]+/i.test(storeUrl)) {
    throw new Error(`STORE_URL must be a directory or an http(s):// URL, not ${storeUrl.replace(/\/\/[^@/]*@/, '//…@')}`);
  }
  const poll = env.STORE_POLL_SECONDS === undefined || env.STORE_POLL_SECONDS === '' ? 30 : Number(env.STORE_POLL_SECONDS);
  if (!Number.isInteger(poll) || poll < 1 || poll > 3600) throw new Error(`STORE_POLL_SECONDS must be 1..3600, not ${env.STORE_POLL_SECONDS}`);
  return { redisUrl, limitsOnRedisFailure: failure as LimitsOnRedisFailure, redisCommandTimeoutMs: timeout, storeUrl, storePollSeconds: poll };
}

/** PORT and HOST. */
export function listenAddressFrom(env: NodeJS.ProcessEnv = process.env): { port: number; host: string } {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0..65535, not ${env.PORT}`);
  return { port, host: env.HOST || '127.0.0.1' };
}

/** METRICS_PORT (unset: no metrics; 0 picks a free port) and METRICS_HOST (127.0.0.1), never the public port. */
export function metricsSettingsFrom(env: NodeJS.ProcessEnv, publicPort: number): Config['metrics'] {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT === '') return undefined;
  const port = Number(env.METRICS_PORT);
  if (!/^\d+$/.test(env.METRICS_PORT) || port > 65535) throw new Error(`METRICS_PORT must be 0..65535, not ${env.METRICS_PORT}`);
  if (port !== 0 && port === publicPort) throw new Error(`METRICS_PORT must differ from PORT (${publicPort}): the metrics are never served on the public port`);
  return { port, host: env.METRICS_HOST || '127.0.0.1' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { port, host } = listenAddressFrom(env);
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${env.LOG_LEVEL}`);
  }
  const workers = env.WORKERS === undefined || env.WORKERS === '' ? availableParallelism() : Number(env.WORKERS);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new Error(`WORKERS must be 1..64, not ${env.WORKERS}`);
  const threadHeapMb = env.THREAD_HEAP_MB === undefined || env.THREAD_HEAP_MB === '' ? 384 : Number(env.THREAD_HEAP_MB);
  if (!Number.isInteger(threadHeapMb) || threadHeapMb < 128) throw new Error(`THREAD_HEAP_MB must be an integer of at least 128, not ${env.THREAD_HEAP_MB}`);
  const pageCacheMb = env.PAGE_CACHE_MB === undefined || env.PAGE_CACHE_MB === '' ? 64 : Number(env.PAGE_CACHE_MB);
  if (!Number.isInteger(pageCacheMb) || pageCacheMb < 0 || pageCacheMb > 4096) throw new Error(`PAGE_CACHE_MB must be an integer from 0 to 4096, not ${env.PAGE_CACHE_MB}`);
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/\s]+/.test(smtpUrl)) throw new Error('SMTP_URL must look like smtp://user:pass@host:port (or smtps://)');
  const publicBaseUrl = env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/+$/, '') : undefined;
  let mailHost = 'localhost';
  try {
    if (publicBaseUrl) mailHost = new URL(publicBaseUrl).hostname;
  } catch {
    // not a URL: the default sender then
  }
  const signInTtlSeconds = env.SIGN_IN_TTL_SECONDS === undefined || env.SIGN_IN_TTL_SECONDS === '' ? 600 : Number(env.SIGN_IN_TTL_SECONDS);
  if (!Number.isInteger(signInTtlSeconds) || signInTtlSeconds < 1 || signInTtlSeconds > 600) throw new Error(`SIGN_IN_TTL_SECONDS must be 1..600, not ${env.SIGN_IN_TTL_SECONDS}`);
  return {
    port,
    workers,
    smtpUrl,
    mailFrom: env.MAIL_FROM || `Prayer Times <no-reply@${mailHost}>`,
    signInTtlSeconds,
    pageCacheMb,
    threadHeapMb,
    host,
    dataDir: dataDirFrom(env),
    publicBaseUrl,
    plansFile: env.PLANS_FILE || undefined,
    logLevel: logLevel as Config['logLevel'],
    mcpAllowedOrigins: parseOrigins(env.MCP_ALLOWED_ORIGINS),
    fleet: fleetSettingsFrom(env),
    trustProxy: parseTrustedProxies(env.TRUST_PROXY),
    metrics: metricsSettingsFrom(env, port),
  };
}
