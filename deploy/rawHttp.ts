// A client that writes exactly the bytes it is given on one TCP connection and reads HTTP/1.x answers back: for
// requests that fetch() will not send (HTTP/1.0, absolute-form targets, unknown methods, conflicting framing).
import net from 'node:net';

export interface RawResponse {
  status: number;
  statusLine: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** Milliseconds from the last write to the end of this answer. */
  ms: number;
}

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private sentAt = performance.now();
  private closedAt: number | undefined;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('close', () => {
      this.closedAt = performance.now();
      this.wake?.();
    });
    socket.on('error', () => {}); // a reset shows as a close
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.closedAt !== undefined;
  }

  send(data: string | Buffer): void {
    this.sentAt = performance.now();
    this.socket.write(data);
  }

  /** Waits until `take` finds what it needs in the buffer (it returns undefined until then). */
  private async until<T>(take: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = take();
      if (found !== undefined) return found;
      const left = deadline - performance.now();
      if (this.closed || left <= 0) {
        const seen = this.buffer.toString('latin1').slice(0, 300);
        throw new Error(`${this.closed ? 'connection closed' : `nothing in ${timeoutMs} ms`} while waiting for ${what}; received ${JSON.stringify(seen)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
  }

  /** Reads the next answer; `head` when it answers a HEAD request (no body whatever the headers say). */
  async response({ head = false, timeoutMs = 2_000 }: { head?: boolean; timeoutMs?: number } = {}): Promise<RawResponse> {
    const headEnd = await this.until(() => {
      const at = this.buffer.indexOf('\r\n\r\n');
      return at < 0 ? undefined : at;
    }, timeoutMs, 'a response head');
    const lines = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const statusLine = lines[0];
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!status) throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    let rest = headEnd + 4;
    let body: Buffer;
    const noBody = head || status === 204 || status === 304 || (status >= 100 && status < 200);
    if (noBody) {
      body = Buffer.alloc(0);
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      ({ body, rest } = await this.until(() => dechunk(this.buffer, rest), timeoutMs, 'a chunked body'));
    } else if (headers['content-length'] !== undefined) {
      const end = rest + Number(headers['content-length']);
      await this.until(() => (this.buffer.length >= end ? true : undefined), timeoutMs, 'the body');
      body = this.buffer.subarray(rest, end);
      rest = end;
    } else {
      await this.until(() => (this.closed ? true : undefined), timeoutMs, 'the end of a body without a length');
      body = this.buffer.subarray(rest);
      rest = this.buffer.length;
    }
    this.buffer = this.buffer.subarray(rest);
    return { status, statusLine, headers, body: Buffer.from(body), text: body.toString('utf8'), ms: performance.now() - this.sentAt };
  }

  /** Resolves with the milliseconds from the last write to the peer closing; fails if it stays open. */
  async whenClosed(timeoutMs = 2_000): Promise<number> {
    await this.until(() => (this.closed ? true : undefined), timeoutMs, 'the server to close the connection');
    return this.closedAt! - this.sentAt;
  }

  /** Bytes received and not read as an answer. */
  get unread(): string {
    return this.buffer.toString('latin1');
  }

  close(): void {
    this.socket.destroy();
  }
}

function dechunk(buffer: Buffer, from: number): { body: Buffer; rest: number } | undefined {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('malformed chunk size');
    const dataStart = lineEnd + 2;
    if (size === 0) {
      // No trailers: the last chunk is followed by an empty line.
      if (buffer.length < dataStart + 2) return undefined;
      return { body: Buffer.concat(parts), rest: dataStart + 2 };
    }
    if (buffer.length < dataStart + size + 2) return undefined;
    parts.push(buffer.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

/** Sends one request on a new connection and reads its answer. */
export async function exchange(port: number, request: string | Buffer, options: { head?: boolean; timeoutMs?: number } = {}): Promise<{ response: RawResponse; connection: RawConnection }> {
  const connection = await RawConnection.open(port);
  connection.send(request);
  const response = await connection.response(options);
  return { response, connection };
}
