// Sending mail behind one interface. With SMTP_URL (`smtp://user:pass@host:port`), nodemailer sends it; without, each
// message is composed the same way (nodemailer's stream transport: the same MIME message) and written to
// DATA_DIR/outbox/<time>-<id>.eml, and the log names the file and the sign-in code, so `make run` works alone.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { log } from '../../log.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The sign-in code the message carries: logged in outbox mode only. */
  code?: string;
}

export interface Mailer {
  /** `smtp` or `outbox`: how messages leave. */
  readonly mode: 'smtp' | 'outbox';
  /** Resolves once the message is handed to the SMTP server (or written); rejects when that failed. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
}

export const outboxPath = (dataDir: string): string => path.join(dataDir, 'outbox');

let written = 0;

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl, { from: options.from });
    return {
      mode: 'smtp',
      async send(message) {
        await transport.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from: options.from });
  const dir = outboxPath(options.dataDir);
  return {
    mode: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
      mkdirSync(dir, { recursive: true });
      const time = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
      const id = `${process.pid}-${++written}-${Math.random().toString(36).slice(2, 8)}`;
      const file = path.join(dir, `${time}-${id}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log('warn', 'mail_outbox', { to: message.to, subject: message.subject, file, ...(message.code ? { code: message.code } : {}) });
    },
    close: () => transport.close(),
  };
}
