/**
 * Every e-mail ARB sends goes through sendMail():
 *  - SMTP_URL set → nodemailer's SMTP transport (short timeouts, so a dead mail server fails a request quickly);
 *  - otherwise → a real RFC 822 message written to DATA_DIR/outbox/*.eml, and the log says which file. A fresh
 *    `npm start` can sign in without any mail server: open the file and read the code.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { env } from '../env';
import { log } from '../log';
import { makePrivateDirAsync, PRIVATE_FILE_MODE } from '../privateFiles';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers (List-Unsubscribe…). */
  headers?: Record<string, string>;
};

export type MailResult = { messageId: string; via: 'smtp' } | { messageId: string; via: 'outbox'; file: string };

export class MailDeliveryError extends Error {}

/** Header values must stay on one line: a CR or LF inside would let a value start new headers. */
export function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const g = globalThis as unknown as { __arbSmtp?: { url: string; transport: Transporter } };

/**
 * nodemailer, loaded at the first message rather than with this module: the review engine imports this file (e-mail
 * destinations) and most of its processes never send a mail; nodemailer's 35 modules are ~1 MB of resident memory.
 */
const loadNodemailer = async () => (await import('nodemailer')).default;

/** One SMTP transport per URL; timeouts given in the URL's query (…?socketTimeout=60000) win over ours. */
async function smtpTransport(smtpUrl: string): Promise<Transporter> {
  const nodemailer = await loadNodemailer(); // first: from here on no await, so two messages never make two transports
  if (g.__arbSmtp?.url === smtpUrl) return g.__arbSmtp.transport;
  const url = new URL(smtpUrl);
  for (const [name, ms] of Object.entries(SMTP_TIMEOUTS)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  }
  const transport = nodemailer.createTransport(url.toString());
  g.__arbSmtp?.transport.close();
  g.__arbSmtp = { url: smtpUrl, transport };
  return transport;
}

let outboxBuilder: Transporter | undefined;

function outboxFileName(to: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const who = to.toLowerCase().replace(/[^a-z0-9@._-]+/g, '_').slice(0, 80);
  return `${stamp}-${who}-${randomBytes(4).toString('hex')}.eml`;
}

export async function sendMail(message: MailMessage): Promise<MailResult> {
  const e = env();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) headers[oneLine(name)] = oneLine(value);
  const mail = {
    from: oneLine(e.MAIL_FROM),
    to: oneLine(message.to),
    subject: oneLine(message.subject),
    text: message.text,
    html: message.html,
    replyTo: message.replyTo ? oneLine(message.replyTo) : undefined,
    headers,
  };

  if (e.SMTP_URL) {
    try {
      const info = await (await smtpTransport(e.SMTP_URL)).sendMail(mail);
      // Subjects and bodies may carry sign-in codes: never logged.
      log.info('e-mail sent', { messageId: info.messageId });
      return { messageId: String(info.messageId), via: 'smtp' };
    } catch (err) {
      log.error('e-mail could not be sent', { err });
      // Shown to the destination's owner and on its public status: the SMTP reply code, never the server's own text
      // (which can name internal hosts, addresses and software).
      const code = (err as { responseCode?: number }).responseCode;
      throw new MailDeliveryError(code ? `The mail server did not accept the message (SMTP ${code}).` : 'The mail server could not be reached.');
    }
  }

  outboxBuilder ??= (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const built = await outboxBuilder.sendMail(mail);
  const dir = path.join(e.DATA_DIR, 'outbox');
  await makePrivateDirAsync(dir);
  const file = path.join(dir, outboxFileName(mail.to));
  await fs.writeFile(file, built.message as Buffer, { mode: PRIVATE_FILE_MODE });
  log.info('e-mail written to the outbox (SMTP_URL is not set)', { file });
  return { messageId: String(built.messageId), via: 'outbox', file };
}

/** Text for HTML bodies: everything a person typed is escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
