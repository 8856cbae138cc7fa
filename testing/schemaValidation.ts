// JSON Schema draft 2020-12 validation (Ajv) with the formats (date, date-time, uri): for the tests that hold the
// published schemas against what the server does.
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: its plugin is the module's default export.
const addFormats = formats.default;

/**
 * A validator in strict mode (unknown keywords and formats are errors), with every error listed. `not: {required:
 * [x]}` (x must be absent) is allowed, although x is not among the properties next to it.
 */
export function schemaValidator(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, ...options });
  addFormats(ajv);
  return ajv;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const SCHEMAS_ID = 'urn:prayer-times:openapi-schemas';

/** The schema with its `#/components/schemas/X` references pointed at the components added to Ajv. */
function pointed(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${SCHEMAS_ID}#/$defs/`));
}

export interface HeaderCheck {
  name: string;
  required: boolean;
  /** Validates the header's text (numbers are read as numbers when the schema wants one). */
  validate(text: string): boolean;
  errors(): string;
}

/** Validators for what an OpenAPI 3.1 description says an operation answers (GET operations). */
export class DocumentValidators {
  readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = schemaValidator();
    this.ajv.addSchema({ $id: SCHEMAS_ID, $defs: pointed(document.components.schemas) });
  }

  /** A schema of the description (its component references resolved), compiled once. */
  compile(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(pointed(schema));
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** A component schema by name. */
  schema(name: string): ValidateFunction {
    return this.compile({ $ref: `#/components/schemas/${name}` });
  }

  /** The Response Object of an operation for a status, a `$ref` to components.responses followed; undefined if not listed. */
  response(path: string, status: number): Json | undefined {
    let response = this.document.paths[path]?.get?.responses?.[status];
    if (response?.$ref) response = this.document.components.responses[String(response.$ref).split('/').pop()!];
    return response;
  }

  /** The JSON body schema of a response, compiled. */
  body(path: string, status: number): ValidateFunction {
    const response = this.response(path, status);
    if (!response) throw new Error(`${path} lists no ${status} response`);
    return this.compile(response.content['application/json'].schema);
  }

  headers(path: string, status: number): HeaderCheck[] {
    const response = this.response(path, status);
    if (!response) throw new Error(`${path} lists no ${status} response`);
    return Object.entries(response.headers ?? {}).map(([name, header]: [string, Json]) => {
      const validate = this.compile(header.schema);
      const numeric = header.schema.type === 'integer' || header.schema.type === 'number';
      return {
        name,
        required: Boolean(header.required),
        validate: (text: string) => validate(numeric && /^-?\d+(?:\.\d+)?$/.test(text) ? Number(text) : text),
        errors: () => this.ajv.errorsText(validate.errors),
      };
    });
  }
}
