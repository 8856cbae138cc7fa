// The code samples of an API request in four languages (curl, JavaScript with fetch, Python with requests, PHP with a
// stream context), made from an operation's example request in the OpenAPI document, as the reference itself is.
// Each reads the key from the environment variable KEY, as the curls read $KEY, and prints the JSON answer.
import { apiCurl } from './curlSnippets.js';
import type { OperationView } from './openApiView.js';

export type SampleLanguage = 'curl' | 'javascript' | 'python' | 'php';

export interface CodeSample {
  language: SampleLanguage;
  /** What the tab says: the language and the library. */
  label: string;
  code: string;
}

export const SAMPLE_LABELS: Readonly<Record<SampleLanguage, string>> = {
  curl: 'curl',
  javascript: 'JavaScript (fetch)',
  python: 'Python (requests)',
  php: 'PHP',
};

/** A parameter of the request with its value as the language writes it: numbers as numbers where the type says so. */
interface Argument {
  name: string;
  value: string;
  numeric: boolean;
}

/** Splits `/api/v1/times?city=…` into its path and arguments, typed by the operation's parameters. */
export function requestArguments(op: OperationView, request: string): { path: string; args: Argument[] } {
  const at = request.indexOf('?');
  const path = at < 0 ? request : request.slice(0, at);
  const types = new Map(op.parameters.map((p) => [p.name, p.type]));
  const args = [...new URLSearchParams(at < 0 ? '' : request.slice(at + 1))].map(([name, value]) => ({
    name,
    value,
    numeric: (types.get(name) === 'number' || types.get(name) === 'integer') && Number.isFinite(Number(value)) && value.trim() !== '',
  }));
  return { path, args };
}

/** A single-quoted literal for JavaScript and PHP (both read `\\` and `\'` in one). */
const singleQuoted = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A JavaScript property name: bare when it is an identifier. */
const jsKey = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : singleQuoted(name));
/** A double-quoted Python literal: JSON's escapes are Python's too, and other characters stay as they are (UTF-8 source). */
const pythonString = (text: string): string => JSON.stringify(text);
/** A number as the example wrote it, in a form every language reads alike. */
const numberLiteral = (value: string): string => String(Number(value));

function javascript(url: string, args: readonly Argument[]): string {
  // Strings, as URLSearchParams takes them (with TypeScript's types too); the curl has the same text.
  const params = args.map((a) => `${jsKey(a.name)}: ${singleQuoted(a.value)}`).join(', ');
  return [
    '// Node.js 18 or later, as an ES module (sample.mjs); your key in the environment variable KEY.',
    ...(args.length ? [`const params = new URLSearchParams({ ${params} });`] : []),
    `const response = await fetch(${args.length ? `${singleQuoted(`${url}?`)} + params` : singleQuoted(url)}, {`,
    '  headers: { Authorization: `Bearer ${process.env.KEY}` },',
    '});',
    'const body = await response.json();',
    'if (!response.ok) throw new Error(`${response.status} ${body.error.code}: ${body.error.message}`);',
    'console.log(JSON.stringify(body, null, 2));',
  ].join('\n');
}

function python(url: string, args: readonly Argument[]): string {
  const params = args.map((a) => `${pythonString(a.name)}: ${a.numeric ? numberLiteral(a.value) : pythonString(a.value)}`).join(', ');
  return [
    '# Python 3 with requests; your key in the environment variable KEY.',
    'import json',
    'import os',
    '',
    'import requests',
    '',
    'response = requests.get(',
    `    ${pythonString(url)},`,
    ...(args.length ? [`    params={${params}},`] : []),
    `    headers={"Authorization": "Bearer " + os.environ["KEY"]},`,
    '    timeout=10,',
    ')',
    'body = response.json()',
    'if not response.ok:',
    `    raise SystemExit(f"{response.status_code} {body['error']['code']}: {body['error']['message']}")`,
    'print(json.dumps(body, indent=2))',
  ].join('\n');
}

function php(url: string, args: readonly Argument[]): string {
  const params = args.map((a) => `${singleQuoted(a.name)} => ${a.numeric ? numberLiteral(a.value) : singleQuoted(a.value)}`).join(', ');
  return [
    '<?php',
    '// PHP 8 with allow_url_fopen (the default); your key in the environment variable KEY.',
    `$url = ${args.length ? `${singleQuoted(`${url}?`)} . http_build_query([${params}])` : singleQuoted(url)};`,
    "$context = stream_context_create(['http' => [",
    "    'header' => 'Authorization: Bearer ' . getenv('KEY'),",
    "    'ignore_errors' => true, // an error's JSON body is read too",
    ']]);',
    '$body = json_decode(file_get_contents($url, false, $context));',
    "$status = (int) explode(' ', $http_response_header[0])[1];",
    'if ($status !== 200) {',
    '    fwrite(STDERR, "$status {$body->error->code}: {$body->error->message}\\n");',
    '    exit(1);',
    '}',
    'echo json_encode($body, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\\n";',
  ].join('\n');
}

/** The samples of one request (`/api/v1/…?…`, as an example of the document gives it) on the base URL. */
export function codeSamples(base: string, op: OperationView, request: string): CodeSample[] {
  const { path, args } = requestArguments(op, request);
  const url = `${base}${path}`;
  const code: Record<SampleLanguage, string> = {
    curl: apiCurl(base, request),
    javascript: javascript(url, args),
    python: python(url, args),
    php: php(url, args),
  };
  return (Object.keys(SAMPLE_LABELS) as SampleLanguage[]).map((language) => ({ language, label: SAMPLE_LABELS[language], code: code[language] }));
}
