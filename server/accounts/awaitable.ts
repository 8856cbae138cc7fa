// What a store method returns when one implementation answers at once (the embedded LMDB and shared-memory ones,
// synchronous on the request path) and another over the network (Redis in fleet mode). Callers that may meet either
// `await` it; the embedded hot path checks `instanceof Promise` instead, so it allocates no promise.
export type Awaitable<T> = T | Promise<T>;
