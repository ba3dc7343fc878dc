/**
 * A real SMTP server on loopback (smtp-server) that keeps every message it receives, parsed: the app talks to it
 * through nodemailer's SMTP transport exactly as it would to a mail provider.
 *
 *   const smtp = await startFakeSmtp();          // env SMTP_URL = smtp.url
 *   const [mail] = await smtp.waitForMessages(1);
 *   mail.to, mail.subject, mail.text, mail.html, mail.headers['reply-to']
 *
 * parseMessage() reads any RFC 822 message (also the .eml files of DATA_DIR/outbox).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ParsedMail = {
  /** Lower-cased header names; repeated headers keep the first value. */
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  text: string;
  html: string;
  raw: string;
};

export type ReceivedMail = ParsedMail & { envelopeFrom: string; envelopeTo: string[] };

export type FakeSmtp = {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves once `n` messages have arrived (no sleeps in tests). */
  waitForMessages(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

function decodeQuotedPrintable(input: string): Buffer {
  const soft = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i];
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words: =?UTF-8?Q?…?= and =?UTF-8?B?…?= (adjacent words join without the space between). */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function splitHead(raw: string): { head: Record<string, string>; body: string } {
  const m = /\r?\n\r?\n/.exec(raw);
  const headText = m ? raw.slice(0, m.index) : raw;
  const body = m ? raw.slice(m.index + m[0].length) : '';
  const head: Record<string, string> = {};
  for (const line of headText.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    if (!(name in head)) head[name] = decodeWords(line.slice(i + 1).trim());
  }
  return { head, body };
}

function contentType(value = 'text/plain'): { type: string; params: Record<string, string> } {
  const [type, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const i = p.indexOf('=');
    if (i > 0) params[p.slice(0, i).trim().toLowerCase()] = p.slice(i + 1).trim().replace(/^"|"$/g, '');
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeBody(body: string, encoding = '7bit'): string {
  const enc = encoding.toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') return decodeQuotedPrintable(body).toString('utf8');
  return body;
}

function collectParts(raw: string, out: { text: string; html: string }): Record<string, string> {
  const { head, body } = splitHead(raw);
  const ct = contentType(head['content-type']);
  if (ct.type.startsWith('multipart/') && ct.params.boundary) {
    const delimiter = `--${ct.params.boundary}`;
    const parts = body.split(delimiter).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      collectParts(part.replace(/^\r?\n/, ''), out);
    }
  } else if (ct.type === 'text/plain' && !out.text) {
    out.text = decodeBody(body, head['content-transfer-encoding']);
  } else if (ct.type === 'text/html' && !out.html) {
    out.html = decodeBody(body, head['content-transfer-encoding']);
  }
  return head;
}

export function parseMessage(raw: string): ParsedMail {
  const out = { text: '', html: '' };
  const headers = collectParts(raw, out);
  return {
    headers,
    subject: headers.subject ?? '',
    from: headers.from ?? '',
    to: headers.to ?? '',
    text: out.text.replace(/\r\n/g, '\n'),
    html: out.html.replace(/\r\n/g, '\n'),
    raw,
  };
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no self-signed STARTTLS for the client to trip over.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          ...parseMessage(raw),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    async waitForMessages(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`fake SMTP: expected ${n} messages, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return messages.slice(0, n);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
