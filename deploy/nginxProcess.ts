// Runs Debian's nginx with deploy/nginx.conf in front of a server, for the tests: the shipped file, with only its
// ADAPT values, its log directory and nginx's temporary files replaced, in a directory of its own (nothing under
// /etc, /var or /run is read or written; as root the workers still drop to www-data, as in production).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NGINX = '/usr/sbin/nginx';
export const NGINX_CONF = fileURLToPath(new URL('./nginx.conf', import.meta.url));

export interface NginxTarget {
  /** Where nginx listens (a loopback port). */
  listenPort: number;
  /** The server's address. */
  upstream: string;
  /** The server's PUBLIC_BASE_URL. */
  publicBaseUrl: string;
  /** The directory for logs, temporary files and the pid file. */
  dir: string;
}

/** Replaces `from` once; the shipped file must hold it exactly once, or the test would run something else. */
function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`deploy/nginx.conf should contain ${JSON.stringify(from)} exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** deploy/nginx.conf for a test: the ADAPT values, the logs and the temporary files replaced, nothing else. */
export function renderNginxConfig(target: NginxTarget, source = readFileSync(NGINX_CONF, 'utf8')): string {
  let conf = source;
  conf = replaceOnce(conf, 'server 127.0.0.1:8080;', `server ${target.upstream};`);
  conf = replaceOnce(conf, 'listen 80;', `listen 127.0.0.1:${target.listenPort};`);
  conf = replaceOnce(conf, 'default "http://localhost:8080";', `default "${target.publicBaseUrl}";`);
  if (!conf.includes('/var/log/nginx/')) throw new Error('deploy/nginx.conf should log under /var/log/nginx/');
  conf = conf.replaceAll('/var/log/nginx/', `${target.dir}/`);
  // Debian's nginx keeps request bodies and buffered answers under /var/lib/nginx unless told otherwise.
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${target.dir}/${kind}_temp;\n`).join('');
  return replaceOnce(conf, 'http {\n', `http {\n${temp}`);
}

/** A port free on the loopback interface right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningNginx {
  port: number;
  dir: string;
  process: ChildProcess;
  /** The error log so far (for failure messages). */
  errorLog(): string;
  /** The access log so far. */
  accessLog(): string;
  stop(): Promise<void>;
}

/** Whether something accepts connections on the port. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts nginx in the foreground with the rendered config in front of `upstream` and waits until it accepts
 * connections. Fails, never skips, when nginx is not installed: `make test` installs it.
 */
export async function startNginx(upstream: string, publicBaseUrl: string, timeoutMs = 10_000): Promise<RunningNginx> {
  if (!existsSync(NGINX)) {
    throw new Error(`${NGINX} is missing: the reverse-proxy test needs Debian's nginx (make test installs it; or run deploy/install-nginx.sh)`);
  }
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'prayer-times-nginx-'));
    // The workers run as www-data when nginx starts as root: they must reach their temporary directories.
    chmodSync(dir, 0o755);
    const port = await freePort();
    const conf = path.join(dir, 'nginx.conf');
    writeFileSync(conf, renderNginxConfig({ listenPort: port, upstream, publicBaseUrl, dir }));
    const errorLogFile = path.join(dir, 'error.log');
    const child = spawn(NGINX, ['-p', dir, '-c', conf, '-e', errorLogFile, '-g', `daemon off; pid ${dir}/nginx.pid;`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    const nginx: RunningNginx = {
      port,
      dir,
      process: child,
      errorLog: () => read(errorLogFile) + stderr,
      accessLog: () => read(path.join(dir, 'prayer-times.access.log')),
      async stop() {
        // SIGQUIT: nginx's graceful stop (SIGTERM is its fast one); both end the workers with the master.
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
        rmSync(dir, { recursive: true, force: true });
      },
    };
    const started = Date.now();
    let up = false;
    while (!up && child.exitCode === null && Date.now() - started < timeoutMs) {
      up = await accepting(port);
      if (!up) await new Promise((r) => setTimeout(r, 25));
    }
    if (up) return nginx;
    const log = nginx.errorLog();
    await nginx.stop();
    // Another process may have taken the port between freePort() and nginx's bind: try another.
    if (log.includes('Address already in use') && attempt < 3) continue;
    throw new Error(`nginx did not start:\n${log}`);
  }
}
