import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { MailDeliveryError, oneLine, sendMail } from '@/server/mail/send';
import { parseMessage, startFakeSmtp, type FakeSmtp } from '../fakes/smtp';

let dataDir: string;
let restore: (() => void) | undefined;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-mail-'));
});
afterEach(() => {
  restore?.();
  restore = undefined;
  vi.restoreAllMocks();
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('without SMTP_URL: the outbox', () => {
  test('writes a real RFC 822 message into DATA_DIR/outbox and logs the file', async () => {
    restore = setEnvForTests({ DATA_DIR: dataDir, SMTP_URL: undefined, LOG_LEVEL: 'info', MAIL_FROM: 'ARB <reviews@arb.test>' });
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });

    const result = await sendMail({
      to: 'jane@example.com',
      subject: 'Zürich ✓ review digest',
      text: 'Plain body with ünïcödé',
      html: '<p>HTML body</p>',
      headers: { 'List-Unsubscribe': '<https://arb.test/unsubscribe/abc>' },
    });

    expect(result.via).toBe('outbox');
    if (result.via !== 'outbox') return;
    expect(path.dirname(result.file)).toBe(path.join(dataDir, 'outbox'));
    expect(path.basename(result.file)).toMatch(/jane@example\.com.*\.eml$/);
    const mail = parseMessage(fs.readFileSync(result.file, 'utf8'));
    expect(mail.from).toBe('ARB <reviews@arb.test>');
    expect(mail.to).toBe('jane@example.com');
    expect(mail.subject).toBe('Zürich ✓ review digest');
    expect(mail.text.trim()).toBe('Plain body with ünïcödé');
    expect(mail.html).toContain('<p>HTML body</p>');
    expect(mail.headers['list-unsubscribe']).toBe('<https://arb.test/unsubscribe/abc>');
    expect(mail.headers['message-id']).toBeTruthy();

    const logged = lines.map((l) => JSON.parse(l) as { msg: string; file?: string }).find((l) => l.file === result.file);
    expect(logged?.msg).toMatch(/outbox/);
  });

  test('CR and LF in header values cannot add headers', async () => {
    restore = setEnvForTests({ DATA_DIR: dataDir, SMTP_URL: undefined });
    const result = await sendMail({
      to: 'jane@example.com\r\nBcc: attacker@evil.test',
      subject: 'Hello\r\nBcc: attacker@evil.test',
      text: 'x',
      headers: { 'X-Note': 'one\nX-Injected: yes' },
    });
    if (result.via !== 'outbox') throw new Error('expected the outbox');
    const raw = fs.readFileSync(result.file, 'utf8');
    const mail = parseMessage(raw);
    expect(mail.headers.bcc).toBeUndefined();
    expect(mail.headers['x-injected']).toBeUndefined();
    expect(mail.subject).toBe('Hello Bcc: attacker@evil.test');
    expect(raw).not.toMatch(/^Bcc:/im);
    expect(oneLine('a\r\nb\nc\r')).toBe('a b c');
  });
});

describe('with SMTP_URL: a real SMTP server', () => {
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterAll(() => smtp.close());

  test('delivers through SMTP with the envelope, headers and both bodies', async () => {
    restore = setEnvForTests({ DATA_DIR: dataDir, SMTP_URL: smtp.url, MAIL_FROM: 'ARB <reviews@arb.test>' });
    const before = fs.existsSync(path.join(dataDir, 'outbox')) ? fs.readdirSync(path.join(dataDir, 'outbox')).length : 0;
    const result = await sendMail({ to: 'ops@example.com', subject: 'Sent over SMTP', text: 'hello', html: '<b>hello</b>', replyTo: 'jane@example.com' });
    expect(result.via).toBe('smtp');
    const [mail] = await smtp.waitForMessages(1);
    expect(mail.envelopeFrom).toBe('reviews@arb.test');
    expect(mail.envelopeTo).toEqual(['ops@example.com']);
    expect(mail.subject).toBe('Sent over SMTP');
    expect(mail.headers['reply-to']).toBe('jane@example.com');
    expect(mail.text.trim()).toBe('hello');
    expect(mail.html).toContain('<b>hello</b>');
    const after = fs.existsSync(path.join(dataDir, 'outbox')) ? fs.readdirSync(path.join(dataDir, 'outbox')).length : 0;
    expect(after).toBe(before);
  });

  test('a mail server that is down fails with MailDeliveryError, not a hang', async () => {
    const dead = await startFakeSmtp();
    await dead.close();
    restore = setEnvForTests({ DATA_DIR: dataDir, SMTP_URL: dead.url });
    await expect(sendMail({ to: 'ops@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(MailDeliveryError);
  });
});
