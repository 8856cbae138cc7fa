// STORE_URL and STORE_POLL_SECONDS as the server reads them (config.ts): bad values stop the start with a message.
import { describe, expect, it } from 'vitest';
import { fleetSettingsFrom } from './config.js';

describe('STORE_URL and STORE_POLL_SECONDS', () => {
  it('take a directory or an http(s) URL, and a poll of 1 to 3600 seconds (30 unset)', () => {
    expect(fleetSettingsFrom({})).toMatchObject({ storeUrl: undefined, storePollSeconds: 30 });
    expect(fleetSettingsFrom({ STORE_URL: '/srv/bundles', STORE_POLL_SECONDS: '5' })).toMatchObject({ storeUrl: '/srv/bundles', storePollSeconds: 5 });
    expect(fleetSettingsFrom({ STORE_URL: 'https://user:pw@bundles.example/store' }).storeUrl).toBe('https://user:pw@bundles.example/store');
  });

  it('refuse another scheme (without showing credentials) and a poll out of range', () => {
    expect(() => fleetSettingsFrom({ STORE_URL: 's3://user:secret@bucket/x' })).toThrow(/STORE_URL must be a directory or an http\(s\):\/\/ URL/);
    expect(() => fleetSettingsFrom({ STORE_URL: 's3://user:secret@bucket/x' })).not.toThrow(/secret/);
    for (const poll of ['0', '3601', '1.5', 'soon']) expect(() => fleetSettingsFrom({ STORE_POLL_SECONDS: poll })).toThrow(/STORE_POLL_SECONDS must be 1\.\.3600/);
  });
});
