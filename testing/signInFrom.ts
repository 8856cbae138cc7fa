// Asks the dashboard for a sign-in code from a chosen local address, over node:http (fetch cannot choose one): for
// the tests of per-client limits, where the client is the connection's address. Linux routes all of 127.0.0.0/8 to
// the loopback, so 127.0.0.2, 127.0.0.3… are as many clients.
import http from 'node:http';

interface Exchanged {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function exchange(options: http.RequestOptions, body?: string): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const request = http.request(options, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

export interface SignInFrom {
  /** The local address to connect from (127.x.y.z). */
  localAddress: string;
  email: string;
  /** The Origin the server takes as its own (PUBLIC_BASE_URL's, or http://localhost:<port>). */
  origin: string;
  /** An X-Forwarded-For header to send (a proxy's, or a forged one). */
  forwardedFor?: string;
}

/** Loads the sign-in page and posts its form for `email`; resolves with the status of the post (200 sent, 429 limited). */
export async function askCodeFrom(port: number, { localAddress, email, origin, forwardedFor }: SignInFrom): Promise<number> {
  const connection = { host: '127.0.0.1', port, localAddress, agent: false };
  const forwarded: Record<string, string> = forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor };
  const page = await exchange({ ...connection, path: '/dashboard/sign-in', headers: forwarded });
  const csrf = /name="csrf" value="([^"]*)"/.exec(page.body)?.[1];
  if (page.status !== 200 || csrf === undefined) throw new Error(`the sign-in page answered ${page.status} without a form`);
  const cookies = (page.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]).join('; ');
  const form = new URLSearchParams({ csrf, email }).toString();
  const sent = await exchange(
    {
      ...connection,
      method: 'POST',
      path: '/dashboard/sign-in/email',
      headers: { ...forwarded, cookie: cookies, origin, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) },
    },
    form,
  );
  return sent.status;
}
