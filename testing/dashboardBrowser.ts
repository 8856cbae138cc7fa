// A browser for the dashboard's HTTP tests: keeps cookies as a browser would (Set-Cookie in, Cookie out, Max-Age=0
// removes), sends the server's own Origin on POSTs and a client address of its own (X-Forwarded-For, as the proxy
// would: the server believes it with TRUST_PROXY=127.0.0.1, else the client is 127.0.0.1), and reads the CSRF token
// of the last page. With the mail read back (outbox or SMTP sink), it signs in.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
  /** Set-Cookie lines of this answer. */
  setCookies: string[];
}

let clients = 0;

export class DashboardBrowser {
  readonly cookies = new Map<string, string>();
  /** The last page's `csrf` field. */
  csrf = '';

  /**
   * `baseUrl` is where requests go; `origin` what POSTs send as Origin (the server's own: http://localhost:<port>
   * when PUBLIC_BASE_URL is unset).
   */
  constructor(
    readonly baseUrl: string,
    readonly origin: string,
    readonly clientAddress = `198.51.100.${(++clients % 250) + 1}`,
  ) {}

  static forServer(server: { baseUrl: string; port: number }, clientAddress?: string): DashboardBrowser {
    return new DashboardBrowser(server.baseUrl, `http://localhost:${server.port}`, clientAddress);
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private async keep(response: Response): Promise<Answer> {
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      if (attributes.some((a) => /^max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1));
    }
    const text = await response.text();
    const csrf = /name="csrf" value="([^"]*)"/.exec(text);
    if (csrf) this.csrf = csrf[1];
    return { status: response.status, text, headers: response.headers, setCookies };
  }

  async get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(this.baseUrl + pathAndQuery, {
      headers: { cookie: this.cookieHeader(), 'x-forwarded-for': this.clientAddress, ...headers },
      redirect: 'manual',
    });
    return this.keep(response);
  }

  /**
   * POSTs a form. The page's CSRF token is added unless `fields` names `csrf` (or `csrf: false` leaves it out), and
   * the Origin unless `origin` says otherwise (null: none).
   */
  async post(pathAndQuery: string, fields: Record<string, string>, options: { csrf?: false; origin?: string | null; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
    const form = new URLSearchParams(fields);
    if (options.csrf !== false && !form.has('csrf')) form.set('csrf', this.csrf);
    const origin = options.origin === undefined ? this.origin : options.origin;
    const response = await fetch(this.baseUrl + pathAndQuery, {
      method: 'POST',
      headers: {
        cookie: this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': this.clientAddress,
        ...(origin === null ? {} : { origin }),
        ...options.headers,
      },
      body: options.body ?? form.toString(),
      redirect: 'manual',
    });
    return this.keep(response);
  }

  /** Asks for a code for `email` from the sign-in page. */
  async askCode(email: string): Promise<Answer> {
    await this.get('/dashboard/sign-in');
    return this.post('/dashboard/sign-in/email', { email });
  }

  /** Signs in by code: asks for one, reads it with `readMail`, and sends it. Resolves with the code's answer. */
  async signIn(email: string, readMail: (email: string) => Promise<SignInMail>): Promise<Answer> {
    const asked = await this.askCode(email);
    if (asked.status !== 200) throw new Error(`asking for a code answered ${asked.status}`);
    const mail = await readMail(email);
    return this.post('/dashboard/sign-in/code', { code: mail.code });
  }
}

export interface SignInMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  code: string;
  /** The confirmation link, whole. */
  link: string;
  /** The link's token. */
  token: string;
}

/** The code and link of a parsed sign-in message. */
export function signInMail(parsed: ParsedMail): SignInMail {
  const text = parsed.text ?? '';
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  const link = /(https?:\/\/\S+\/dashboard\/sign-in\/link\?token=([A-Za-z0-9_-]{43}))/.exec(text);
  if (!code || !link) throw new Error(`no code or link in the message:\n${text}`);
  const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
  return { to, subject: parsed.subject ?? '', text, html: typeof parsed.html === 'string' ? parsed.html : '', code, link: link[1], token: link[2] };
}

/** The newest message to `email` in DATA_DIR/outbox (outbox mode: no SMTP_URL). */
export async function outboxMail(dataDir: string, email: string): Promise<SignInMail> {
  const dir = path.join(dataDir, 'outbox');
  const files = readdirSync(dir).sort().reverse();
  for (const file of files) {
    const parsed = await simpleParser(readFileSync(path.join(dir, file)));
    const mail = signInMail(parsed);
    if (mail.to.toLowerCase().includes(email.toLowerCase())) return mail;
  }
  throw new Error(`no message to ${email} in ${dir}`);
}
