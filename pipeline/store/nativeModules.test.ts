// npm 11 runs no install scripts here; the native packages must load their prebuilt binaries without them.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { usingFallback, uWS } from '../../server/edge/uws.js';

const require = createRequire(import.meta.url);

describe('native modules load without install scripts', () => {
  it('uWebSockets.js loads its native binary, not the JavaScript fallback', () => {
    expect(usingFallback).toBe(false);
    expect(typeof uWS.App).toBe('function');
  });

  it('msgpackr uses its native accelerator', () => {
    const msgpackr = require('msgpackr');
    expect(msgpackr.isNativeAccelerationEnabled).toBe(true);
    const packed = msgpackr.pack({ fajr: '05:12', estimated: [] });
    expect(msgpackr.unpack(packed)).toEqual({ fajr: '05:12', estimated: [] });
  });

  it('lmdb opens, writes and reads a store', async () => {
    const { open } = await import('lmdb');
    const dir = mkdtempSync(path.join(tmpdir(), 'lmdb-check-'));
    try {
      const db = open({ path: dir });
      await db.put('k', { v: 1 });
      expect(db.get('k')).toEqual({ v: 1 });
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
