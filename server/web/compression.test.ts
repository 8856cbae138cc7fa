// Which coding a request's Accept-Encoding takes (q-values, `*`, identity, refusals), and a body's compressed forms:
// each made once, each the plain body again once decompressed, and never one larger than the plain body.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chosenCoding, compressibleType, CompressedForms, encodedFor, formsFor, MIN_COMPRESSED_BYTES, MIN_COMPRESSED_ONCE_BYTES, parseAcceptEncoding } from './compression.js';

describe('Accept-Encoding', () => {
  it.each([
    ['', undefined],
    ['identity', undefined],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', undefined],
    ['gzip, deflate, br, zstd', 'br'], // a browser's: brotli wins a tie
    ['gzip, deflate', 'gzip'], // curl --compressed without brotli
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['gzip;q=0.5, br;q=0.1', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['*;q=0, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['identity;q=1, gzip;q=0.5', undefined], // identity named and preferred
    ['identity;q=0.2, gzip;q=0.5', 'gzip'],
    ['identity;q=0', undefined], // nothing we have is acceptable but the plain body: it goes out plain
    ['gzip;q=2', undefined], // a q-value out of range: the element is ignored
    ['gzip;q=x', undefined],
    [' br ; q=0.8 ,gzip;q=0.9', 'gzip'],
    [',,, ,', undefined],
  ])('%j takes %s', (header, expected) => {
    expect(parseAcceptEncoding(header)).toBe(expected);
    expect(chosenCoding(header)).toBe(expected);
  });
});

describe('compressed forms', () => {
  const page = Buffer.from(`<!doctype html><title>x</title>${'<p>İmsak 05:12 · Güneş 06:40</p>\n'.repeat(200)}`);

  it('decompress to the plain body, are made once, and are smaller', () => {
    const forms = new CompressedForms(page);
    const br = forms.form('br')!;
    const gzip = forms.form('gzip')!;
    expect(brotliDecompressSync(br).equals(page)).toBe(true);
    expect(gunzipSync(gzip).equals(page)).toBe(true);
    expect(br.length).toBeLessThan(page.length / 4);
    expect(forms.form('br')).toBe(br); // the same bytes, not made again
    expect(forms.bytes).toBe(page.length + br.length + gzip.length);
    expect(encodedFor(forms, 'gzip, br')).toEqual({ body: br, coding: 'br' });
    expect(encodedFor(forms, 'identity')).toEqual({ body: page, coding: undefined });
  });

  it('a form no smaller than the plain body is not used', () => {
    const noise = randomBytes(4096);
    const forms = new CompressedForms(noise);
    expect(forms.form('gzip')).toBeUndefined();
    expect(encodedFor(forms, 'gzip')).toEqual({ body: noise, coding: undefined });
  });

  it('are for text bodies of 1 KB or more (4 KB for one request’s)', () => {
    expect(formsFor(page, 'text/html; charset=utf-8')).toBeInstanceOf(CompressedForms);
    expect(formsFor(page.subarray(0, MIN_COMPRESSED_BYTES - 1), 'text/html; charset=utf-8')).toBeUndefined();
    expect(formsFor(page, 'image/png')).toBeUndefined();
    // A body made for one request alone is compressed from 4 KB.
    expect(formsFor(page.subarray(0, MIN_COMPRESSED_ONCE_BYTES - 1), 'text/html', 'answer', MIN_COMPRESSED_ONCE_BYTES)).toBeUndefined();
    expect(formsFor(page.subarray(0, MIN_COMPRESSED_ONCE_BYTES), 'text/html', 'answer', MIN_COMPRESSED_ONCE_BYTES)).toBeInstanceOf(CompressedForms);
    for (const type of ['text/css; charset=utf-8', 'text/javascript; charset=utf-8', 'application/json; charset=utf-8', 'application/xml', 'image/svg+xml', 'application/manifest+json', 'text/calendar; charset=utf-8', 'application/ld+json']) {
      expect(compressibleType(type), type).toBe(true);
    }
    for (const type of ['image/png', 'image/x-icon', 'application/octet-stream', undefined]) expect(compressibleType(type), String(type)).toBe(false);
  });
});
