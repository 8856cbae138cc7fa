// Claims HOST:PORT for this process before its serving threads listen. The threads listen with SO_REUSEPORT, so
// that they share the port; but the kernel lets any process of the same user join such a port, and then splits the
// connections between the processes without a word (a stale server left running in a deploy answered every other
// request with its old code and keys). So the primary first binds the port alone: a plain socket without
// SO_REUSEPORT cannot bind a port that any other socket listens on, with or without it. It then lets go of it for its
// threads. Between that release and the threads' listen another server of ours could do the same; a lock held for
// the process's life closes that window: an abstract Unix socket named after the address (Linux; the kernel drops it
// when the process ends, however it ends).
import net from 'node:net';

/** The port is served, or being claimed, by another process. */
export class PortTakenError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`${host}:${port} is already in use by another process (a server left running?): stop it, or set PORT to another port`);
  }
}

export interface PortClaim {
  /** The port claimed: the one asked for, or the kernel's choice for port 0. */
  port: number;
  /**
   * Binds the port alone once more, just before the threads listen: the lock keeps servers of ours away from the
   * moment of the claim, but not another program that took the port during the start-up.
   */
  recheck(): Promise<void>;
  /** Lets the lock go (the process's end does as well). */
  release(): void;
}

function listen(server: net.Server, options: net.ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const closed = (server: net.Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

const isAddressInUse = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE';

/** The lock's name: one per address, in the abstract namespace (a leading NUL), so no file is left behind. */
export const lockName = (host: string, port: number): string => `\0prayer-times-server ${host} ${port}`;

/** Binds HOST:PORT without SO_REUSEPORT; the bound probe, or PortTakenError when any other socket listens there. */
async function bindAlone(host: string, port: number): Promise<net.Server> {
  const probe = net.createServer();
  try {
    await listen(probe, { host, port, exclusive: true });
    return probe;
  } catch (error) {
    if (isAddressInUse(error)) throw new PortTakenError(host, port);
    throw error;
  }
}

/**
 * Binds HOST:PORT alone (throws PortTakenError when another process serves it), takes the address's lock, and
 * releases the port for the serving threads.
 */
export async function claimPort(host: string, port: number): Promise<PortClaim> {
  const probe = await bindAlone(host, port);
  const claimed = (probe.address() as net.AddressInfo).port;
  let lock: net.Server | undefined;
  try {
    if (process.platform === 'linux') {
      lock = net.createServer((socket) => socket.destroy());
      await listen(lock, { path: lockName(host, claimed) });
      lock.unref();
    }
  } catch (error) {
    await closed(probe);
    throw isAddressInUse(error) ? new PortTakenError(host, claimed) : error;
  }
  // The lock is held before the port is let go: a second server of ours either fails the bind above or the lock.
  await closed(probe);
  return {
    port: claimed,
    recheck: async () => closed(await bindAlone(host, claimed)),
    release: () => lock?.close(),
  };
}
