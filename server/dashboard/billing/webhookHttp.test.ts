// The billing webhook over real HTTP, against the real server with each provider (the local test provider and
// Stripe, both verified by the `stripe` package's code): its answers are JSON throughout (a body over the bound,
// another method, an unknown webhook), and a signature dated beyond the five minutes' tolerance is refused either
// way, in the future as in the past.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../../testing/serverProcess.js';
import { SIGNATURE_TOLERANCE_SECONDS } from './stripeEvents.js';

const BOUND = 1024 * 1024;

const PROVIDERS = [
  { provider: 'local', secret: 'whsec_http_local', env: { LOCAL_BILLING_SECRET: 'whsec_http_local' } },
  {
    provider: 'stripe',
    secret: 'whsec_http_stripe',
    env: { BILLING_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_http', STRIPE_WEBHOOK_SECRET: 'whsec_http_stripe', STRIPE_PRICE_PRO: 'price_pro', STRIPE_PRICE_BUSINESS: 'price_business' },
  },
] as const;

let events = 0;
/** A verified event of a type billing records and does not act on. */
const eventBody = (): string =>
  JSON.stringify({ id: `evt_http_${++events}`, object: 'event', created: Math.floor(Date.now() / 1000), type: 'customer.created', data: { object: { id: 'cus_http', object: 'customer' } } });

interface JsonAnswer {
  status: number;
  type: string;
  body: { error?: { code: string; message: string }; received?: boolean };
  headers: Headers;
}

async function jsonOf(response: Response): Promise<JsonAnswer> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  expect(type, text.slice(0, 200)).toBe('application/json; charset=utf-8');
  return { status: response.status, type, body: JSON.parse(text), headers: response.headers };
}

describe.each(PROVIDERS)('POST /webhooks/billing with the $provider provider', ({ secret, env }) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), ...env });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = (body: string, signature: string | undefined): Promise<JsonAnswer> =>
    fetch(`${server.baseUrl}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body }).then(jsonOf);
  const signed = (body: string, offsetSeconds: number): string =>
    Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: Math.floor(Date.now() / 1000) + offsetSeconds });

  it('refuses a body over the bound with a JSON 413, whether its length is declared or it streams', async () => {
    const declared = await post('x'.repeat(BOUND + 1), signed('x', 0));
    expect(declared.status).toBe(413);
    expect(declared.body.error?.code).toBe('payload_too_large');
    expect(declared.body.error?.message).toContain(String(BOUND));
    // Chunked, with no length: the edge's bounded reader stops at the bound.
    const chunk = new TextEncoder().encode('y'.repeat(64 * 1024));
    const streamed = await fetch(`${server.baseUrl}/webhooks/billing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed('y', 0) },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 17; i++) controller.enqueue(chunk);
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit).then(jsonOf);
    expect(streamed.status).toBe(413);
    expect(streamed.body.error?.code).toBe('payload_too_large');
  });

  it('answers another method and an unknown webhook in JSON too', async () => {
    const get = await fetch(`${server.baseUrl}/webhooks/billing`).then(jsonOf);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.body.error?.code).toBe('method_not_allowed');
    const unknown = await fetch(`${server.baseUrl}/webhooks/elsewhere`, { method: 'POST', body: '{}' }).then(jsonOf);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('not_found');
  });

  it('refuses a signature dated beyond the tolerance, an hour ahead as an hour behind, and takes one within it', async () => {
    const beyond = SIGNATURE_TOLERANCE_SECONDS + 60;
    for (const offset of [3600, beyond, -beyond, -3600]) {
      const body = eventBody();
      const refused = await post(body, signed(body, offset));
      expect(refused.status, `offset ${offset} s`).toBe(400);
      expect(refused.body.error?.code).toBe('invalid_signature');
      expect(refused.body.error?.message).toMatch(/tolerance/);
    }
    for (const offset of [120, 0, -120]) {
      const body = eventBody();
      const taken = await post(body, signed(body, offset));
      expect(taken.status, `offset ${offset} s`).toBe(200);
      expect(taken.body).toEqual({ received: true });
    }
    // An unsigned or forged delivery: a JSON 400 as well.
    const body = eventBody();
    expect((await post(body, undefined)).body.error?.code).toBe('missing_signature');
    const forged = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_not_ours' });
    expect((await post(body, forged)).body.error?.code).toBe('invalid_signature');
  });
});
