// Where store bundles are published and fetched from (STORE_URL, `store publish --to`): a directory (local, or a
// shared mount) or an http(s) location that answers GET and accepts PUT (a plain web server, an object store's
// endpoint). Files are streamed both ways, never held whole: a store can be gigabytes. Node's own http/https and
// fs only; credentials in the URL (`https://user:pass@host/…`) are sent as Basic auth and never shown.
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A pointer or a manifest is a few hundred bytes; anything past this is not one (and is not read into memory). */
const MAX_TEXT_BYTES = 1 << 20;

/** No byte for this long on an HTTP connection: the transfer is given up (and retried by whoever asked). */
const HTTP_IDLE_TIMEOUT_MS = 30_000;

export interface BundleLocation {
  /** The location as it may be shown in logs and messages (no password). */
  readonly shown: string;
  /** A small text file (a pointer, a manifest), or undefined when there is none. */
  readText(name: string): Promise<string | undefined>;
  /** A file's bytes, streamed. */
  openRead(name: string): Promise<Readable>;
  /**
   * Writes a build's files and its manifest under `build/`: complete or not at all for a directory (staged beside,
   * renamed into place); for HTTP, the files first and the manifest last.
   */
  writeBuild(build: string, files: readonly { name: string; localFile: string }[], manifest: string): Promise<void>;
  /** Replaces the pointer file, atomically for a directory (written beside, renamed over); for HTTP, one PUT. */
  writePointer(name: string, text: string): Promise<void>;
}

export class BundleLocationError extends Error {}

export function bundleLocation(where: string): BundleLocation {
  if (/^https?:\/\//i.test(where)) return new HttpLocation(new URL(where.endsWith('/') ? where : `${where}/`));
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(where)) throw new BundleLocationError(`a bundle location is a directory or an http(s):// URL, not ${where}`);
  return new DirectoryLocation(path.resolve(where));
}

class DirectoryLocation implements BundleLocation {
  constructor(private readonly root: string) {}

  get shown(): string {
    return this.root;
  }

  async readText(name: string): Promise<string | undefined> {
    try {
      const file = path.join(this.root, name);
      if ((await stat(file)).size > MAX_TEXT_BYTES) throw new BundleLocationError(`${file} is over ${MAX_TEXT_BYTES} bytes`);
      return await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  openRead(name: string): Promise<Readable> {
    return new Promise((resolve, reject) => {
      const stream: ReadStream = createReadStream(path.join(this.root, name));
      stream.once('error', reject);
      stream.once('open', () => {
        stream.off('error', reject);
        resolve(stream);
      });
    });
  }

  async writeBuild(build: string, files: readonly { name: string; localFile: string }[], manifest: string): Promise<void> {
    await this.assertDirectory();
    const staged = path.join(this.root, `.${build}.partial-${process.pid}`);
    await rm(staged, { recursive: true, force: true });
    await mkdir(staged);
    try {
      // copyFile copies in the kernel (or streams): never the whole file in this process's memory.
      for (const file of files) await copyFile(file.localFile, path.join(staged, file.name));
      await writeFile(path.join(staged, 'manifest.json'), manifest);
      const target = path.join(this.root, build);
      // Published before (the same build again): the new copy replaces it whole.
      await rm(target, { recursive: true, force: true });
      await rename(staged, target);
    } catch (error) {
      await rm(staged, { recursive: true, force: true });
      throw error;
    }
  }

  async writePointer(name: string, text: string): Promise<void> {
    await this.assertDirectory();
    const temporary = path.join(this.root, `.${name}.${process.pid}.tmp`);
    await writeFile(temporary, text);
    await rename(temporary, path.join(this.root, name));
  }

  /** The directory is created when missing, but its parent must exist (a typo should not create a tree). */
  private async assertDirectory(): Promise<void> {
    const parent = path.dirname(this.root);
    const parentStat = await stat(parent).catch(() => undefined);
    if (!parentStat?.isDirectory()) throw new BundleLocationError(`${parent} is not a directory`);
    await mkdir(this.root, { recursive: true });
  }
}

class HttpLocation implements BundleLocation {
  constructor(private readonly base: URL) {}

  get shown(): string {
    const shown = new URL(this.base);
    if (shown.password) shown.password = '***';
    return shown.toString();
  }

  async readText(name: string): Promise<string | undefined> {
    const response = await this.send('GET', name);
    if (response.statusCode === 404) {
      response.resume();
      return undefined;
    }
    await this.assertOk('GET', name, response);
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of response) {
      bytes += (chunk as Buffer).length;
      if (bytes > MAX_TEXT_BYTES) {
        response.destroy();
        throw new BundleLocationError(`${this.urlOf(name, true)} is over ${MAX_TEXT_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  async openRead(name: string): Promise<Readable> {
    const response = await this.send('GET', name);
    await this.assertOk('GET', name, response);
    return response;
  }

  async writeBuild(build: string, files: readonly { name: string; localFile: string }[], manifest: string): Promise<void> {
    for (const file of files) {
      const { size } = await stat(file.localFile);
      await this.put(`${build}/${file.name}`, { stream: createReadStream(file.localFile), length: size });
    }
    await this.put(`${build}/manifest.json`, Buffer.from(manifest));
  }

  writePointer(name: string, text: string): Promise<void> {
    return this.put(name, Buffer.from(text));
  }

  private async put(name: string, body: Buffer | { stream: Readable; length: number }): Promise<void> {
    const response = await this.send('PUT', name, body);
    await this.assertOk('PUT', name, response);
    response.resume();
  }

  private async assertOk(method: string, name: string, response: IncomingMessage): Promise<void> {
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return;
    response.resume();
    throw new BundleLocationError(`${method} ${this.urlOf(name, true)} answered ${status} ${response.statusMessage ?? ''}`.trim());
  }

  private urlOf(name: string, shown = false): string {
    return new URL(name, shown ? this.shown : this.base).toString();
  }

  /** One request; resolves with the response once its head has come. */
  private send(method: 'GET' | 'PUT', name: string, body?: Buffer | { stream: Readable; length: number }): Promise<IncomingMessage> {
    const url = new URL(name, this.base);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const length = body === undefined ? undefined : Buffer.isBuffer(body) ? body.length : body.length;
      const request = send(url, { method, headers: length === undefined ? {} : { 'Content-Length': length, 'Content-Type': 'application/octet-stream' } });
      const failed = (error: Error) => reject(new BundleLocationError(`${method} ${this.urlOf(name, true)} failed: ${error.message}`));
      request.setTimeout(HTTP_IDLE_TIMEOUT_MS, () => request.destroy(new Error(`no answer for ${HTTP_IDLE_TIMEOUT_MS / 1000} s`)));
      request.once('error', failed);
      request.once('response', (response) => {
        // An answer cut off mid-body fails the stream that reads it (a transport error, retried, not a refusal).
        response.setTimeout?.(HTTP_IDLE_TIMEOUT_MS, () => response.destroy(new Error(`no byte for ${HTTP_IDLE_TIMEOUT_MS / 1000} s`)));
        resolve(response);
      });
      if (body === undefined) request.end();
      else if (Buffer.isBuffer(body)) request.end(body);
      else pipeline(body.stream, request).catch(failed);
    });
  }
}

/** Writes a stream to a file (the caller's stream may verify what passes). */
export async function streamToFile(source: Readable, file: string): Promise<void> {
  await pipeline(source, createWriteStream(file));
}
