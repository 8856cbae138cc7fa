// The package's entry: the client, its result types, and the API's own types as the OpenAPI document gives them.
import type { components } from './schema.js';

export { createClient, OPERATION_PATHS } from './client.js';
export type {
  ApiError,
  ApiErrorCode,
  ClientError,
  ClientErrorCode,
  ClientOptions,
  Data,
  Failure,
  OperationCall,
  OperationId,
  PrayerTimesClient,
  Query,
  RequestOptions,
  Result,
  Success,
} from './client.js';
export type { Limits } from './rateLimits.js';
// The generated types (paths, components, operations) and each enumeration's values (methodIdValues, …).
export * from './schema.js';

/** A schema of the OpenAPI document by name: Schema<'DailyResponse'>, Schema<'CatalogLocation'>, Schema<'Method'>. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
