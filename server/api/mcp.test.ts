// The MCP server at /mcp, driven by the SDK's own client over real HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, provisionKey, runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';

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
      ['getPrayerTimes', { lat: 200, lon: 0 }, 'invalid_parameter'],
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

/** One raw POST to /mcp with the key (and the headers the transport asks for), the answer parsed. */
async function rawMcp(body: string, headers: Record<string, string> = {}, base = server.baseUrl): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': key, 'Mcp-Protocol-Version': '2025-06-18', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}
/** The header of a protocol version that has JSON-RPC batches (2025-06-18, rawMcp's default, has none). */
const BATCHES = { 'Mcp-Protocol-Version': '2025-03-26' };
const rpc = (method: string, params?: unknown, id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

describe('JSON-RPC errors', () => {
  it('tools/call params that do not fit the protocol: −32602 naming what is wrong and what is allowed', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'getQibla', arguments: 'lat=41&lon=29' }, /^Invalid params: params\.arguments must be an object .*getQibla takes city, lat, lon; it was a string\.$/],
      [{ name: 'getQibla', arguments: [41, 29] }, /params\.arguments must be an object .*it was an array\.$/],
      [{ name: 'getQibla', arguments: null }, /params\.arguments must be an object .*or left out.*it was null\.$/],
      [{ name: 7, arguments: {} }, /^Invalid params: params\.name must be a string naming the tool \(one of getPrayerTimes, .*getHijriDate\); it was a number\.$/],
      [{ arguments: { lat: 41, lon: 29 } }, /params\.name must be a string .*it was missing\.$/],
      [undefined, /^Invalid params: tools\/call needs params, an object such as .*; they were missing\.$/],
      [{ name: 'getQibla', arguments: { lat: 41, lon: 29 }, _meta: 5 }, /^Invalid params: params\._meta: .*expected object/],
    ];
    for (const [params, message] of cases) {
      const res = await rawMcp(rpc('tools/call', params, 'call-1'));
      expect(res.status, JSON.stringify(params)).toBe(200);
      expect(res.body, JSON.stringify(params)).toEqual({ jsonrpc: '2.0', id: 'call-1', error: { code: -32602, message: expect.stringMatching(message) } });
      expect(res.body.error.message).not.toMatch(/\[\s*\{|invalid_type/); // no validator dump
    }
    // The other methods' params too.
    const list = await rawMcp(rpc('tools/list', { cursor: 5 }));
    expect(list.body.error).toEqual({ code: -32602, message: expect.stringMatching(/^Invalid params for tools\/list: params\.cursor: .*expected string/) });
    // Inside a batch (a protocol version that has them), the bad call gets its −32602 and the good one its result.
    const batch = await rawMcp(JSON.stringify([JSON.parse(rpc('tools/list', undefined, 1)), JSON.parse(rpc('tools/call', { name: 'getQibla', arguments: 3 }, 2))]), BATCHES);
    expect(batch.status).toBe(200);
    expect(batch.body[0].result.tools).toHaveLength(6);
    expect(batch.body[1]).toMatchObject({ id: 2, error: { code: -32602 } });
    // A bad argument value is still a tool result with the API's error object (the contract).
    const value = await rawMcp(rpc('tools/call', { name: 'getQibla', arguments: { lat: 200, lon: 29 } }));
    expect(value.body.result).toMatchObject({ isError: true, structuredContent: { error: { code: 'invalid_parameter' } } });
  });

  it('an empty batch, or JSON that is not a JSON-RPC message: HTTP 400, one −32600 error', async () => {
    const empty = await rawMcp('[]', BATCHES);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: the batch is empty/) } });
    const cases: Array<[string, RegExp]> = [
      ['5', /the message is a number, not a JSON-RPC 2\.0 message object/],
      ['[1]', /element 0 of the batch is a number/],
      [JSON.stringify({ jsonrpc: '1.0', id: 3, method: 'ping' }), /needs "jsonrpc": "2\.0"/],
      [JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: [1] }), /"params" that are an array/],
      [JSON.stringify({ jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }), /"id" that is an object/],
    ];
    for (const [body, message] of cases) {
      const res = await rawMcp(body, BATCHES);
      expect(res.status, body).toBe(400);
      expect(res.body.error, body).toEqual({ code: -32600, message: expect.stringMatching(message) });
    }
    // Not JSON at all stays a parse error.
    const parse = await rawMcp('{"jsonrpc":');
    expect(parse.status).toBe(400);
    expect(parse.body.error.code).toBe(-32700);
  });

  it('a message over 1 MiB: HTTP 413 with a JSON-RPC error; one just under it is served', async () => {
    const big = await rawMcp('x'.repeat(5 * 1024 * 1024));
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toMatch(/^application\/json/);
    expect(big.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/at most 1048576 bytes/) } });
    const padded = (n: number) => {
      const shell = rpc('tools/list', { _meta: { pad: '' } });
      return shell.replace('"pad":""', `"pad":"${'x'.repeat(n - shell.length)}"`);
    };
    expect((await rawMcp(padded(1024 * 1024 + 1))).status).toBe(413);
    const under = await rawMcp(padded(1024 * 1024));
    expect(under.status).toBe(200);
    expect(under.body.result.tools).toHaveLength(6);
  });
});

describe('Origin (DNS rebinding)', () => {
  const ping = rpc('ping');

  it('refuses a browser origin that is not allowed with 403, before the key and the method', async () => {
    for (const origin of ['http://evil.example', 'null', `http://localhost:${server.port + 1}`, `https://127.0.0.1:${server.port}`, 'http://127.0.0.1.evil.example']) {
      const res = await rawMcp(ping, { Origin: origin });
      expect(res.status, origin).toBe(403);
      expect(res.body, origin).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('may not use this MCP server') } });
    }
    const noKey = await fetch(`${server.baseUrl}/mcp`, { method: 'POST', headers: { Origin: 'http://evil.example' }, body: ping });
    expect(noKey.status).toBe(403);
    const preflight = await fetch(`${server.baseUrl}/mcp`, { method: 'OPTIONS', headers: { Origin: 'http://evil.example' } });
    expect(preflight.status).toBe(403);
  });

  it('serves loopback origins of its port, the origin of PUBLIC_BASE_URL, and requests without Origin', async () => {
    // PUBLIC_BASE_URL is unset here: it is http://localhost:<port>.
    for (const origin of [`http://localhost:${server.port}`, `http://127.0.0.1:${server.port}`, `http://[::1]:${server.port}`, undefined]) {
      const res = await rawMcp(ping, origin === undefined ? {} : { Origin: origin });
      expect(res.status, origin).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
    const preflight = await fetch(`${server.baseUrl}/mcp`, { method: 'OPTIONS', headers: { Origin: `http://localhost:${server.port}` } });
    expect(preflight.status).toBe(204);
  });

  it('allows PUBLIC_BASE_URL’s origin and MCP_ALLOWED_ORIGINS; refuses a malformed MCP_ALLOWED_ORIGINS at start-up', async () => {
    const other = await startServer({
      PUBLIC_BASE_URL: 'https://prayer.example.com/',
      MCP_ALLOWED_ORIGINS: 'https://agent.example.org, HTTP://LOCALHOST:5173/',
    });
    try {
      const otherKey = await provisionKey(other.dataDir, 'origins@example.com', 'business');
      await new Promise((r) => setTimeout(r, 600));
      const send = (origin: string) => rawMcp(ping, { Origin: origin, 'X-API-Key': otherKey }, other.baseUrl);
      for (const origin of ['https://prayer.example.com', 'https://agent.example.org', 'http://localhost:5173', `http://127.0.0.1:${other.port}`]) {
        expect((await send(origin)).status, origin).toBe(200);
      }
      for (const origin of ['http://prayer.example.com', 'https://agent.example.org:8443', 'https://evil.example.org']) {
        expect((await send(origin)).status, origin).toBe(403);
      }
    } finally {
      await other.stop();
    }
    await expect(startServer({ MCP_ALLOWED_ORIGINS: 'https://ok.example.com,https://bad.example.com/path' }, 15_000)).rejects.toThrow(
      /MCP_ALLOWED_ORIGINS must be comma-separated origins .*not https:\/\/bad\.example\.com\/path/,
    );
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
    // Both headers: the Bearer key decides, as on the API (docs/keys-and-usage.md, "Keys, plans and quotas").
    expect((await initialize({ Authorization: `Bearer ${revokedKey}`, 'X-API-Key': key })).status).toBe(403);
    expect((await initialize({ Authorization: `Bearer ${key}`, 'X-API-Key': revokedKey })).status).toBe(200);
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

describe('arguments as the schema types them, ids, what counts, batches by protocol version, the content type', () => {
  it('a string where the input schema says number (or the reverse) is an error result with the API’s error object', async () => {
    const call = async (name: string, args: Record<string, unknown>) =>
      (await rawMcp(rpc('tools/call', { name, arguments: args }))).body.result;
    const api400 = (await api('/api/v1/times?lat=north&lon=29')).body.error;
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['getPrayerTimes', { lat: '41', lon: 29 }, /^lat must be a number from -90 to 90, given as a JSON number: "41" is a string\.$/],
      ['getQibla', { lat: 41, lon: ' 29 ' }, /^lon must be a number from -180 to 180, given as a JSON number: " 29 " is a string\.$/],
      ['getMonthlyTimetable', { lat: 41, lon: 29, year: 2026, month: '2' }, /^month must be an integer from 1 to 12, given as a JSON number/],
      ['getMonthlyTimetable', { lat: 41, lon: 29, year: true, month: 2 }, /^year must be an integer from 1900 to 2100, given as a JSON number: it was a boolean\.$/],
      ['getMonthlyTimetable', { lat: 41, lon: 29, year: 2026, month: 2.5 }, /^month must be an integer from 1 to 12\.$/],
      ['getHijriDate', { date: 20260218 }, /^date must be a string; it was a number\.$/],
      ['searchCities', { q: ['ist'] }, /^q must be a string; it was an array\.$/],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(name, args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result.structuredContent.error, JSON.stringify(args)).toEqual({ ...api400, message: expect.stringMatching(message) });
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    }
    // The same values as JSON numbers are served.
    expect((await call('getPrayerTimes', { lat: 41, lon: 29, date: '2026-03-01' })).structuredContent).toEqual((await api('/api/v1/times?lat=41&lon=29&date=2026-03-01')).body);
    expect((await call('getMonthlyTimetable', { lat: 41, lon: 29, year: 2026, month: 2 })).isError).toBeFalsy();
  });

  it('an integer id beyond 2^53 − 1: −32600 with id null (JSON.parse would have rounded it); the largest safe one is echoed exactly', async () => {
    for (const id of ['9007199254740993', '9007199254740992', '-9007199254740993', '1e300']) {
      const res = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': key, 'Mcp-Protocol-Version': '2025-06-18' },
        body: `{"jsonrpc":"2.0","id":${id},"method":"ping"}`,
      });
      expect(res.status, id).toBe(400);
      const text = await res.text();
      expect(text, id).toContain('"id":null');
      expect(JSON.parse(text).error, id).toEqual({ code: -32600, message: expect.stringMatching(/integer "id" beyond ±9007199254740991 .*use a string id/) });
    }
    const safe = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': key, 'Mcp-Protocol-Version': '2025-06-18' },
      body: '{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}',
    });
    expect(safe.status).toBe(200);
    expect(await safe.text()).toBe('{"result":{},"jsonrpc":"2.0","id":9007199254740991}');
    // In a batch, the batch is refused the same way.
    const batch = await rawMcp(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":90071992547409930,"method":"ping"}]`, BATCHES);
    expect(batch.status).toBe(400);
    expect(batch.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: element 1 of the batch has an integer "id" beyond/) } });
  });

  it('under 2025-06-18 and later a batch is −32600 (HTTP 400); under 2025-03-26, 2024-11-05 or without the header it is served', async () => {
    const batch = JSON.stringify([JSON.parse(rpc('ping', undefined, 1)), JSON.parse(rpc('tools/list', undefined, 2))]);
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await rawMcp(batch, { 'Mcp-Protocol-Version': version });
      expect(res.status, version).toBe(400);
      expect(res.body, version).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Invalid Request: MCP protocol version ${version} (the MCP-Protocol-Version header) has no JSON-RPC batches; send each message in its own request (batches are taken under 2025-03-26 and 2024-11-05).` },
      });
    }
    for (const version of ['2025-03-26', '2024-11-05']) {
      const res = await rawMcp(batch, { 'Mcp-Protocol-Version': version });
      expect(res.status, version).toBe(200);
      expect(res.body.map((m: any) => m.id), version).toEqual([1, 2]);
      expect(res.body[1].result.tools, version).toHaveLength(6);
    }
    const withoutHeader = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': key },
      body: batch,
    });
    expect(withoutHeader.status).toBe(200);
    expect(((await withoutHeader.json()) as any[]).map((m) => m.id)).toEqual([1, 2]);
    // A version the server does not support is the SDK's 400, batch or not.
    const unknown = await rawMcp(batch, { 'Mcp-Protocol-Version': '1999-01-01' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/Unsupported protocol version: 1999-01-01/);
    // The batch rules the SDK enforces itself are refused alike: initialize in a batch, more than 100 messages.
    const init = JSON.parse(rpc('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }, 1));
    const withInit = await rawMcp(JSON.stringify([init, JSON.parse(rpc('ping', undefined, 2))]), BATCHES);
    expect(withInit.status).toBe(400);
    expect(withInit.body.error).toEqual({ code: -32600, message: 'Invalid Request: initialize must be sent alone, not in a batch.' });
    const many = await rawMcp(JSON.stringify(Array.from({ length: 101 }, (_, i) => JSON.parse(rpc('ping', undefined, i)))), BATCHES);
    expect(many.status).toBe(400);
    expect(many.body.error.message).toBe('Invalid Request: a batch may hold at most 100 messages; this one holds 101.');
  });

  it('only tools/call requests of a valid message or batch count: notifications and bodies refused as invalid do not', async () => {
    const countedKey = await provisionKey(server.dataDir, 'counting@example.com', 'trial');
    await new Promise((r) => setTimeout(r, 600));
    const qibla = { name: 'getQibla', arguments: { lat: 41, lon: 29 } };
    const call = (id: unknown) => ({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method: 'tools/call', params: qibla });
    const send = async (body: string, version = '2025-06-18') => {
      const res = await rawMcp(body, { 'X-API-Key': countedKey, 'Mcp-Protocol-Version': version });
      return { ...res, left: Number(res.headers.get('x-quota-remaining')) };
    };
    let left = (await send(rpc('ping'))).left; // ping counts nothing: the starting point
    expect(left).toBe(1000);
    const free: Array<[string, string, string | undefined, number]> = [
      ['a tools/call notification', JSON.stringify(call(undefined)), undefined, 202],
      ['a tools/call with a member JSON-RPC lacks', JSON.stringify({ ...call(3), extra: 1 }), undefined, 400],
      ['a tools/call with "jsonrpc": "1.0"', JSON.stringify({ ...call(3), jsonrpc: '1.0' }), undefined, 400],
      ['a tools/call with an id beyond 2^53', JSON.stringify(call(3)).replace('"id":3', '"id":9007199254740993'), undefined, 400],
      ['a batch of tools/call under 2025-06-18', JSON.stringify([call(1), call(2)]), undefined, 400],
      ['a batch with a bad element', JSON.stringify([call(1), 5]), '2025-03-26', 400],
      ['a batch with initialize', JSON.stringify([JSON.parse(rpc('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }, 9)), call(1)]), '2025-03-26', 400],
      ['a batch of notifications', JSON.stringify([call(undefined), call(undefined)]), '2025-03-26', 202],
      ['JSON that is not JSON-RPC', JSON.stringify({ method: 'tools/call', id: 1 }), undefined, 400],
      ['not JSON', '{"jsonrpc":"2.0","id":1,"method":"tools/call"', undefined, 400],
    ];
    for (const [what, body, version, status] of free) {
      const res = await send(body, version);
      expect(res.status, what).toBe(status);
      expect(res.left, what).toBe(left);
    }
    // A valid tools/call counts once; a batch (2025-03-26) counts its requests, not its notifications.
    let res = await send(JSON.stringify(call(1)));
    expect(res.body.result.isError).toBeFalsy();
    expect(res.left).toBe(--left);
    res = await send(JSON.stringify([call(1), call(undefined), call(2)]), '2025-03-26');
    expect(res.body.map((m: any) => m.id)).toEqual([1, 2]);
    expect(res.left).toBe((left -= 2));
    // A tools/call request answered −32602 (its params do not fit) counts, as a 400 does on the API.
    res = await send(rpc('tools/call', { name: 'getQibla', arguments: 'lat=41' }, 4));
    expect(res.body.error.code).toBe(-32602);
    expect(res.left).toBe(--left);
  });

  it('every JSON answer says Content-Type: application/json; charset=utf-8', async () => {
    const cases: Array<[string, string, Record<string, string>, number]> = [
      ['a result', rpc('ping'), {}, 200],
      ['a tool result', rpc('tools/call', { name: 'getQibla', arguments: { lat: 41, lon: 29 } }), {}, 200],
      ['an error result', rpc('tools/call', { name: 'getQibla', arguments: { lat: '41', lon: 29 } }), {}, 200],
      ['−32602', rpc('tools/call', { name: 'getQibla', arguments: 3 }), {}, 200],
      ['−32601', rpc('resources/list'), {}, 200],
      ['−32600', '5', {}, 400],
      ['−32600, a batch under 2025-06-18', `[${rpc('ping')}]`, {}, 400],
      ['−32700', '{', {}, 400],
      ['the SDK’s 406', rpc('ping'), { Accept: 'application/json' }, 406],
      ['the SDK’s 415', rpc('ping'), { 'Content-Type': 'text/plain' }, 415],
      ['401', rpc('ping'), { 'X-API-Key': '' }, 401],
      ['413', 'x'.repeat(2 * 1024 * 1024), {}, 413],
    ];
    for (const [what, body, headers, status] of cases) {
      const res = await rawMcp(body, headers);
      expect(res.status, what).toBe(status);
      expect(res.headers.get('content-type'), what).toBe('application/json; charset=utf-8');
    }
    // A notification's 202 has no body, and so no type.
    const accepted = await rawMcp(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(accepted.status).toBe(202);
    expect(accepted.body).toBeUndefined();
    expect(accepted.headers.get('content-type')).toBeNull();
  });
});
