// What the domain's outcomes mean to the API: the one place where they become the contract's error codes.
import { ApiError } from '../errors.js';
import { StoreUnavailableError } from '../timetables/timetables.js';

/** The error as the contract's ApiError, or undefined when it is not one the API expects (a 500). */
export function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreUnavailableError) return new ApiError('service_unavailable', error.message);
  return undefined;
}
