// The shell commands the docs show: a curl with the key from $KEY, quoted so a shell takes the URL as it is.
import { API_REFERENCE_PATH } from '../links.js';

/** Single-quoted for a POSIX shell (a quote inside becomes '\''). */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export type KeyHeader = 'bearer' | 'x-api-key';

const keyHeader = (header: KeyHeader): string => (header === 'bearer' ? '"Authorization: Bearer $KEY"' : '"X-API-Key: $KEY"');

/** `curl -H "Authorization: Bearer $KEY" '{base}{pathAndQuery}'`. */
export const apiCurl = (base: string, pathAndQuery: string, header: KeyHeader = 'bearer'): string =>
  `curl -H ${keyHeader(header)} ${shellQuote(`${base}${pathAndQuery}`)}`;

/** A JSON-RPC message to /mcp. */
export const mcpCurl = (base: string, mcpPath: string, message: unknown): string =>
  [
    `curl -X POST ${shellQuote(`${base}${mcpPath}`)} \\`,
    `  -H "Authorization: Bearer $KEY" \\`,
    `  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\`,
    `  -d ${shellQuote(JSON.stringify(message))}`,
  ].join('\n');

/** Where an operation is described on the reference page. */
export const operationHref = (operationId: string): string => `${API_REFERENCE_PATH}#${operationId}`;
