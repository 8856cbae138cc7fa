// The MCP server at /mcp, driven by the SDK's own client over real HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, provisionKey, runCli, startServer, type RunningServer } from './serverProcess.js';

let server: RunningServer;
let key: string;

beforeAll(async () => {
  const dir = dataDirWithCatalog(inject('catalogDataDir'));
  const plans = path.join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 } }));
  key = await provisionKey(dir, 'agent@example.com', 'business');
  server = await startServer({ DATA_DIR: dir, PLANS_FILE: plans });
});
afterAll(async () => {
  await server?.stop();
});

async function connect(withKey: string | undefined, how: 'bearer' | 'header' = 'bearer'): Promise<Client> {
  const headers: Record<string, string> = withKey === undefined ? {} : how === 'bearer' ? { Authorization: `Bearer ${withKey}` } : { 'X-API-Key': withKey };
  const client = new Client({ name: 'prayer-times-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers } }));
  return client;
}

async function api(p: string, withKey = key): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(server.baseUrl + p, { headers: { 'X-API-Key': withKey } });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const TOOL_PATHS: Record<string, string> = {
  getPrayerTimes: '/api/v1/times',
  getMonthlyTimetable: '/api/v1/month',
  getNextPrayer: '/api/v1/next',
  getQibla: '/api/v1/qibla',
  searchCities: '/api/v1/cities',
  getHijriDate: '/api/v1/hijri',
};

describe('tools', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(key);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the six operations as read-only tools whose input schemas are the API’s parameter declarations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOL_PATHS).sort());
    const openapi = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as any;
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(20);
      expect(tool.annotations?.readOnlyHint).toBe(true);
      const operation = openapi.paths[TOOL_PATHS[tool.name]].get;
      expect(operation.operationId).toBe(tool.name);
      // The same declarations: each parameter's schema, its requiredness, and nothing else.
      expect(tool.inputSchema.properties).toEqual(Object.fromEntries(operation.parameters.map((p: any) => [p.name, p.schema])));
      expect(tool.inputSchema.required ?? []).toEqual(operation.parameters.filter((p: any) => p.required).map((p: any) => p.name));
      expect((tool.inputSchema as any).additionalProperties).toBe(false);
    }
    const times = tools.find((t) => t.name === 'getPrayerTimes')!;
    expect((times.inputSchema.properties as any).lat).toMatchObject({ type: 'number', minimum: -90, maximum: 90 });
    expect((times.inputSchema.properties as any).method.enum).toContain('diyanet');
  });

  const calls: Array<[string, Record<string, unknown>, string]> = [
    ['getPrayerTimes', { city: 'Kadıköy', date: '2026-03-01' }, `city=${encodeURIComponent('Kadıköy')}&date=2026-03-01`],
    ['getPrayerTimes', { lat: 52.52, lon: 13.405, date: '2026-06-21', method: 'muslimWorldLeague', madhab: 'hanafi' }, 'lat=52.52&lon=13.405&date=2026-06-21&method=muslimWorldLeague&madhab=hanafi'],
    ['getMonthlyTimetable', { city: 'istanbul', year: 2026, month: 2 }, 'city=istanbul&year=2026&month=2'],
    ['getQibla', { city: 'New York City' }, `city=${encodeURIComponent('New York City')}`],
    ['searchCities', { q: 'kad', limit: 5 }, 'q=kad&limit=5'],
    ['getHijriDate', { date: '2026-02-18' }, 'date=2026-02-18'],
  ];
  it.each(calls)('%s gives the API’s JSON as structuredContent and as text', async (name, args, query) => {
    const result = (await client.callTool({ name, arguments: args })) as any;
    expect(result.isError).toBeFalsy();
    const expected = (await api(`${TOOL_PATHS[name]}?${query}`)).body;
    expect(result.structuredContent).toEqual(expected);
    expect(JSON.parse(result.content[0].text)).toEqual(expected);
  });

  it('getNextPrayer answers as /next does', async () => {
    const result = (await client.callTool({ name: 'getNextPrayer', arguments: { city: 'istanbul' } })) as any;
    const expected = (await api('/api/v1/next?city=istanbul')).body;
    expect(result.structuredContent.location).toEqual(expected.location);
    expect(result.structuredContent.next.prayer).toBe(expected.next.prayer);
    expect(result.structuredContent.next.iso).toBe(expected.next.iso);
    expect(Math.abs(result.structuredContent.next.inSeconds - expected.next.inSeconds)).toBeLessThanOrEqual(2);
  });

  it('a bad argument or an unknown city is an error result with the API’s error object', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['getPrayerTimes', { lat: 91, lon: 0 }, 'invalid_parameter'],
      ['getPrayerTimes', { lat: 'north', lon: 0 }, 'invalid_parameter'],
      ['getPrayerTimes', { city: 'Nowhereville' }, 'city_not_found'],
      ['getPrayerTimes', { city: 'istanbul', lat: 1, lon: 2 }, 'conflicting_parameters'],
      ['getMonthlyTimetable', { lat: 41, lon: 29, month: 13 }, 'invalid_parameter'],
      ['searchCities', {}, 'missing_parameter'],
      ['getQibla', { lat: 41, lon: 29, tz: 'UTC' }, 'unknown_parameter'],
      ['getHijriDate', { date: '2026-02-30' }, 'invalid_parameter'],
    ];
    for (const [name, args, code] of cases) {
      const result = (await client.callTool({ name, arguments: args })) as any;
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.structuredContent.error.code).toBe(code);
      expect(Object.keys(result.structuredContent.error)).toEqual(['code', 'message', 'docs', 'pricing']);
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    }
    // The API says the same.
    const { body } = await api('/api/v1/times?city=Nowhereville');
    const result = (await client.callTool({ name: 'getPrayerTimes', arguments: { city: 'Nowhereville' } })) as any;
    expect(result.structuredContent).toEqual(body);
  });

  it('an unknown tool is a protocol error', async () => {
    await expect(client.callTool({ name: 'getWeather', arguments: {} })).rejects.toThrow(/Unknown tool getWeather/);
  });
});

describe('keys and quota', () => {
  const initialize = (headers: Record<string, string>) =>
    fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });

  it('without a key: 401 with the API’s error body; the SDK client fails to connect', async () => {
    const res = await initialize({});
    expect(res.status).toBe(401);
    const body = (await res.json()) as any;
    expect(body.error.code).toBe('missing_api_key');
    expect(body.error.docs).toMatch(/\/docs\/authentication$/);
    await expect(connect(undefined)).rejects.toThrow();
    const wrong = await initialize({ 'X-API-Key': 'mk_00000000000000000000000000000000' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as any).error.code).toBe('invalid_api_key');
  });

  it('a revoked key: 403', async () => {
    const revokedKey = await provisionKey(server.dataDir, 'revoked@example.com', 'trial');
    const revoked = await runCli(['keys', 'revoke', revokedKey], { DATA_DIR: server.dataDir });
    expect(revoked.code).toBe(0);
    await new Promise((r) => setTimeout(r, 600));
    const res = await initialize({ 'X-API-Key': revokedKey });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe('api_key_revoked');
    await expect(connect(revokedKey, 'header')).rejects.toThrow();
  });

  it('API requests and tool calls share one account’s limit; initialize and tools/list do not count', async () => {
    const trialKey = await provisionKey(server.dataDir, 'shared@example.com', 'trial');
    await new Promise((r) => setTimeout(r, 600));
    const client = await connect(trialKey, 'header'); // initialize + notifications/initialized: not counted
    await client.listTools(); // not counted
    let used = 0;
    for (let i = 0; i < 5; i++) {
      const r = await api('/api/v1/qibla?lat=41&lon=29', trialKey);
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-remaining')).toBe(String(10 - ++used));
      const call = (await client.callTool({ name: 'getQibla', arguments: { lat: 41, lon: 29 } })) as any;
      expect(call.isError).toBeFalsy();
      used++;
    }
    expect(used).toBe(10);
    // The minute is used up: for tool calls (an HTTP 429 with the contract's body and headers)…
    await expect(client.callTool({ name: 'getQibla', arguments: { lat: 41, lon: 29 } })).rejects.toThrow(/429|rate_limit_exceeded/);
    const raw = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': trialKey, 'Mcp-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'getQibla', arguments: { lat: 41, lon: 29 } } }),
    });
    expect(raw.status).toBe(429);
    expect(((await raw.json()) as any).error.code).toBe('rate_limit_exceeded');
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(raw.headers.get('x-quota-remaining')).toBe('990');
    // …and for the API.
    const refused = await api('/api/v1/qibla?lat=41&lon=29', trialKey);
    expect(refused.status).toBe(429);
    // tools/list still answers (it does not count), with the same headers.
    const list = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': trialKey, 'Mcp-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('ratelimit-remaining')).toBe('0');
    expect(list.headers.get('x-quota-remaining')).toBe('990');
    await client.close();
  });

  it('other methods on /mcp: 405; CORS preflight: 204', async () => {
    const get = await fetch(`${server.baseUrl}/mcp`, { headers: { 'X-API-Key': key } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    const preflight = await fetch(`${server.baseUrl}/mcp`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Mcp-Protocol-Version');
  });
});
