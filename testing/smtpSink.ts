// A real SMTP server on 127.0.0.1 (smtp-server) as the mail sink of HTTP tests: it keeps every message (read with
// mailparser) with its envelope, and every command line as the client sent it, so a test can see what went over the
// wire (smtp-server itself hands recipients over with IDN domains decoded). `smtpUtf8: false` hides SMTPUTF8 (RFC
// 6531) from the EHLO answer, as a relay without it would.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { signInMail, type SignInMail } from './dashboardBrowser.js';

export interface SinkMessage extends SignInMail {
  /** RCPT TO addresses as smtp-server gives them. */
  envelopeTo: string[];
  /** Whether MAIL FROM asked for SMTPUTF8. */
  smtpUtf8: boolean;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  messages: SinkMessage[];
  /** Every command line the clients sent, as sent (`MAIL FROM:<…> SMTPUTF8`, `RCPT TO:<…>`). */
  commands: string[];
  close(): Promise<void>;
}

/** A sign-in message with its code and link; any other message (the quota mails) with those empty. */
function anyMail(parsed: ParsedMail): SignInMail {
  try {
    return signInMail(parsed);
  } catch {
    const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
    return { to, subject: parsed.subject ?? '', text: parsed.text ?? '', html: typeof parsed.html === 'string' ? parsed.html : '', code: '', link: '', token: '' };
  }
}

export async function startSmtpSink(options: { smtpUtf8: boolean } = { smtpUtf8: true }): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const commands: string[] = [];
  const quiet = (): void => undefined;
  // smtp-server logs each client line at debug as ('C:', line); nothing else is kept.
  const logger = {
    debug: (_meta: unknown, ...args: unknown[]) => {
      if (args[0] === 'C:') commands.push(String(args[1]));
    },
    info: quiet,
    warn: quiet,
    error: quiet,
    trace: quiet,
    fatal: quiet,
    child() {
      return logger;
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    hideSMTPUTF8: !options.smtpUtf8,
    logger: logger as never,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({ ...anyMail(parsed), envelopeTo: session.envelope.rcptTo.map((r) => r.address), smtpUtf8: session.envelope.smtpUtf8 === true });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, commands, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
