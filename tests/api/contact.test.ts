// POST v1/public/contact: validated, stored, e-mailed to TEAM_EMAIL through a real SMTP server, rate limited per IP.
import { describe, expect, test } from 'vitest';
import { resendUnsentContactMessages } from '@/server/contact/contact';
import { setUpMailApi } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { startFakeSmtp } from '../fakes/smtp';

const w = setUpMailApi('contact', { TEAM_EMAIL: 'team@arb.test' });
let ipCounter = 0;
const nextIp = () => `192.0.2.${++ipCounter}`;

const send = (body: unknown, ip = nextIp()) => call<{ ok: boolean }>(w.api, 'POST', '/api/v1/public/contact', body, { ip });

describe('POST v1/public/contact', () => {
  test('stores the message and e-mails it to the team with Reply-To set to the sender', async () => {
    const message = 'Hello <team>,\nDoes ARB support Webex?\n— Jane & co';
    const r = await send({ email: ' Jane@Example.com ', message: `  ${message}  ` });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ data: { ok: true } });

    const row = await w.db.db.selectFrom('contact_messages').selectAll().where('email', '=', 'jane@example.com').executeTakeFirstOrThrow();
    expect(row.message).toBe(message);
    expect(row.ip).toMatch(/^192\.0\.2\./);
    expect(row.emailed_at).not.toBeNull();

    const [mail] = await w.smtp.waitForMessages(1);
    expect(mail.envelopeTo).toEqual(['team@arb.test']);
    expect(mail.headers['reply-to']).toBe('jane@example.com');
    expect(mail.subject).toBe('Contact form: message from jane@example.com');
    expect(mail.text).toContain(message);
    expect(mail.html).toContain('Hello &lt;team&gt;,');
    expect(mail.html).not.toContain('<team>');
  });

  test.each([
    [{ email: 'nope', message: 'hi' }, /^email: Enter a valid e-mail address\./],
    [{ email: 'a@example.com', message: '' }, /^message: Write a message first\./],
    [{ email: 'a@example.com', message: '   ' }, /^message: Write a message first\./],
    [{ email: 'a@example.com', message: 'x'.repeat(5001) }, /^message: Keep the message under 5,000 characters\./],
    [{ email: 'a@example.com' }, /^message: /],
    [{ message: 'hi' }, /^email: /],
    [{ email: 'a@example.com', message: ['hi'] }, /^message: /],
  ])('refuses %j', async (body, message) => {
    const r = await send(body);
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(message);
  });

  test('a message of exactly 5,000 characters is fine', async () => {
    expect((await send({ email: 'long@example.com', message: 'x'.repeat(5000) })).status).toBe(200);
  });

  test('the 6th message within an hour from one IP → 429 with Retry-After', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await send({ email: `s${i}@example.com`, message: 'hi' }, ip)).status).toBe(200);
    const r = await send({ email: 's6@example.com', message: 'hi' }, ip);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  test('when mail is down the message is kept, the visitor gets ok, and it is sent later', async () => {
    const dead = await startFakeSmtp();
    await dead.close();
    w.setEnv({ SMTP_URL: dead.url });
    const r = await send({ email: 'later@example.com', message: 'Sent while mail was down' });
    expect(r.status).toBe(200);
    const row = await w.db.db.selectFrom('contact_messages').selectAll().where('email', '=', 'later@example.com').executeTakeFirstOrThrow();
    expect(row.emailed_at).toBeNull();

    w.setEnv();
    const before = w.smtp.messages.length;
    // The retry leaves fresh messages to the request that is sending them: look 10 minutes ahead.
    const sent = await resendUnsentContactMessages(new Date(Date.now() + 10 * 60_000));
    expect(sent).toBe(1);
    const mails = await w.smtp.waitForMessages(before + 1);
    expect(mails[before].text).toContain('Sent while mail was down');
    const after = await w.db.db.selectFrom('contact_messages').select('emailed_at').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after.emailed_at).not.toBeNull();
    expect(await resendUnsentContactMessages(new Date(Date.now() + 10 * 60_000))).toBe(0);
  });
});
