// The client cannot drift from the API: its committed types are what openapi-typescript makes of the OpenAPI
// document the route table gives now, and its table of operations is the document's. (client.test.ts holds the
// client against a real server, and the served document to the same types.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../server/api/openapi.js';
import { EXAMPLE_BASE_URL } from '../../../server/api/openapiExamples.js';
import { REGENERATE_COMMAND, SCHEMA_FILE, schemaSource } from '../codegen.js';
import { OPERATION_PATHS } from './client.js';

const doc = openApiDocument(EXAMPLE_BASE_URL) as any;

describe('the generated types', () => {
  it('are what the current OpenAPI document gives', async () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(await schemaSource(), `clients/typescript/src/schema.ts is not generated from the current OpenAPI document: run ${REGENERATE_COMMAND}`).toBe(committed);
  });

  it('change with the document (the check above has teeth)', async () => {
    const changed = structuredClone(doc);
    const qibla = changed.components.schemas.QiblaResponse;
    qibla.properties.bearingName = { type: 'string' };
    qibla.required.push('bearingName');
    changed.paths['/api/v1/times'].get.parameters.push({ name: 'elevation', in: 'query', required: false, schema: { type: 'number' } });
    const source = await schemaSource(changed);
    expect(source).not.toBe(readFileSync(SCHEMA_FILE, 'utf8'));
    expect(source).toMatch(/bearingName: string;/);
    expect(source).toMatch(/elevation\?: number;/);
    // The document handed in is left as it was.
    expect(changed.components.schemas.QiblaResponse.properties.bearingName).toEqual({ type: 'string' });
  });

  it('hold every operation, its parameters and the error codes', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect(committed).toContain(`"${path}": {`);
      expect(committed).toContain(`${item.get.operationId}: {`);
    }
    for (const code of doc.components.schemas.Error.properties.error.properties.code.enum) expect(committed).toContain(`"${code}"`);
  });
});

describe('the client’s table of operations', () => {
  it('is the document’s: every operationId with its path, and nothing else', () => {
    const documented = Object.fromEntries(Object.entries<any>(doc.paths).map(([path, item]) => [item.get.operationId, path]));
    expect(OPERATION_PATHS).toEqual(documented);
  });
});
