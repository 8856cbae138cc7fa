// The MCP tools' output schemas over real HTTP, through the SDK's own client: tools/list gives every tool an
// outputSchema derived from the served OpenAPI document (the operation's 200 schema, or the error body), and the
// client, which validates structuredContent against it by itself, takes every answer, error results included.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

let server: RunningServer;
let key: string;
let client: Client;
let tools: Tool[];
let openapi: any;

beforeAll(async () => {
  const started = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) });
  server = started.server;
  key = started.key;
  client = new Client({ name: 'output-schema-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  tools = (await client.listTools()).tools;
  openapi = await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json();
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

/** A schema of the OpenAPI document with its component references read as `#/$defs/…`. */
const localRefs = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/'));

/** The operation of the served document a tool stands for (same operationId). */
function operationOf(name: string): any {
  for (const item of Object.values<any>(openapi.paths)) if (item.get.operationId === name) return item.get;
  throw new Error(`no operation ${name}`);
}

const validator = new AjvJsonSchemaValidator();
const validates = (tool: Tool, value: unknown): boolean => validator.getValidator(tool.outputSchema as any)(value).valid;
const toolNamed = (name: string): Tool => tools.find((t) => t.name === name)!;

describe('tools/list', () => {
  it('gives every tool an outputSchema: its operation’s 200 schema or the error body, as the OpenAPI document has them', () => {
    expect(tools).toHaveLength(6);
    for (const tool of tools) {
      const schema = tool.outputSchema as any;
      expect(schema, tool.name).toBeDefined();
      expect(schema.type).toBe('object');
      const response = operationOf(tool.name).responses['200'].content['application/json'].schema.$ref.replace('#/components/schemas/', '');
      expect(schema.anyOf).toEqual([{ $ref: `#/$defs/${response}` }, { $ref: '#/$defs/Error' }]);
      // Derived: each definition is the served document's component, and every reference inside lands on one.
      for (const [name, definition] of Object.entries<any>(schema.$defs)) expect(definition, `${tool.name} ${name}`).toEqual(localRefs(openapi.components.schemas[name]));
      const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"#\/\$defs\/(\w+)"/g)].map((m) => m[1]);
      for (const name of refs) expect(Object.keys(schema.$defs), `${tool.name} refers to ${name}`).toContain(name);
      expect(Object.keys(schema.$defs)).toContain(response);
      expect(Object.keys(schema.$defs)).toContain('Error');
    }
  });
});

describe('tools/call', () => {
  const calls: Array<[string, Record<string, unknown>]> = [
    ['getPrayerTimes', { city: 'Kadıköy', date: '2026-03-01' }],
    ['getPrayerTimes', { lat: 69.65, lon: 18.96, date: '2026-06-21' }],
    ['getMonthlyTimetable', { city: 'istanbul', year: 2026, month: 2 }],
    ['getNextPrayer', { lat: 40.7128, lon: -74.006 }],
    ['getQibla', { city: 'New York City' }],
    ['searchCities', { q: 'kad', limit: 5 }],
    ['getHijriDate', { date: '2026-02-18' }],
  ];

  it.each(calls)('%s %j: structuredContent validates against the outputSchema (the SDK client checked it)', async (name, args) => {
    // The SDK client throws when structuredContent does not fit the tool's outputSchema: a resolved call is a valid one.
    const result = (await client.callTool({ name, arguments: args })) as any;
    expect(result.isError).toBeFalsy();
    expect(validates(toolNamed(name), result.structuredContent)).toBe(true);
  });

  it('an error result validates too, as the error body', async () => {
    const result = (await client.callTool({ name: 'getPrayerTimes', arguments: { city: 'Nowhereville' } })) as any;
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error.code).toBe('city_not_found');
    expect(validates(toolNamed('getPrayerTimes'), result.structuredContent)).toBe(true);
  });

  it('the schema refuses what the API never answers (it is not a schema that takes anything)', async () => {
    const tool = toolNamed('getPrayerTimes');
    const { structuredContent } = (await client.callTool({ name: 'getPrayerTimes', arguments: { city: 'istanbul', date: '2026-03-01' } })) as any;
    const without = { ...structuredContent };
    delete without.times;
    expect(validates(tool, without)).toBe(false);
    expect(validates(tool, { ...structuredContent, times: { ...structuredContent.times, fajr: '25:00' } })).toBe(false);
    expect(validates(tool, { ...structuredContent, surprise: 1 })).toBe(false);
    expect(validates(tool, { error: { code: 'no_such_code', message: 'x', docs: 'https://e.example/docs', pricing: 'https://e.example/pricing' } })).toBe(false);
    // Another tool's answer is not this tool's.
    const hijri = (await client.callTool({ name: 'getHijriDate', arguments: { date: '2026-02-18' } })) as any;
    expect(validates(tool, hijri.structuredContent)).toBe(false);
  });

  it('a client that is told a wrong outputSchema refuses the answer: the SDK does validate', async () => {
    const strict = new Client({ name: 'output-schema-test', version: '1.0.0' });
    await strict.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    try {
      // As if tools/list had said getHijriDate answers a qibla (the SDK's own hook that listTools feeds): the client
      // compiles this schema and checks the answer against it.
      const qibla = toolNamed('getQibla').outputSchema;
      (strict as any).cacheToolMetadata([{ ...toolNamed('getHijriDate'), outputSchema: { ...qibla, anyOf: [{ $ref: '#/$defs/QiblaResponse' }] } }]);
      await expect(strict.callTool({ name: 'getHijriDate', arguments: { date: '2026-02-18' } })).rejects.toThrow(/does not match the tool's output schema/);
    } finally {
      await strict.close();
    }
  });
});
