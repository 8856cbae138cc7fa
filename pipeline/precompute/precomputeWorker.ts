// A precompute worker thread: computes whole years for the jobs it is sent and returns them encoded.
import { parentPort } from 'node:worker_threads';
import type { Madhab } from '../astronomy/methods.js';
import { methodById } from '../astronomy/methods.js';
import { storedYear } from '../store/storedYear.js';
import { daysInYear } from '../store/timetableCodec.js';

export interface PrecomputeJob {
  key: string;
  latitude: number;
  longitude: number;
  timeZone: string;
  method: string;
  madhab: Madhab;
  year: number;
  /** The method's zone the place lies in (methodZones.ts). */
  zone?: string;
}

export interface PrecomputeResult {
  key: string;
  bytes: Uint8Array;
  days: number;
}

parentPort!.on('message', (jobs: PrecomputeJob[]) => {
  const results: PrecomputeResult[] = jobs.map((job) => {
    const query = { latitude: job.latitude, longitude: job.longitude, timeZone: job.timeZone, method: methodById(job.method), madhab: job.madhab, zone: job.zone };
    let encoded: Buffer;
    try {
      encoded = storedYear(query, job.year);
    } catch (error) {
      // Name the job: a place that cannot be computed is a bug to fix, and the run must say which.
      throw new Error(`${job.key} (${job.latitude}, ${job.longitude}, ${job.timeZone}): ${(error as Error).message}`);
    }
    return { key: job.key, bytes: new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength), days: daysInYear(job.year) };
  });
  // The encoded years move to the main thread rather than being copied (each has a buffer of its own: Buffer.alloc).
  parentPort!.postMessage(results, results.map((r) => r.bytes.buffer as ArrayBuffer));
});
