// Sign-in by e-mail code, token exchange, sessions (hand-off, renew, logout) and the billing-only crm exchange, against
// the real route files, a real database (PGlite: HTTP behaviour, vitest.config.ts; the races on one row are in
// authRaces.test.ts, on both databases), a real SMTP server on loopback and a loopback hCaptcha siteverify.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { env } from '@/server/env';
import { signAccessToken, verifyAuthToken } from '@/server/auth/tokens';
import { SESSION_CACHE_MS } from '@/server/auth/sessionState';
import { accessTokenFor, sessionFor } from '../helpers/session';
import { setUpMailApi } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { parseMessage, startFakeSmtp } from '../fakes/smtp';
import { startFakeHcaptcha, type FakeHcaptcha } from '../fakes/hcaptcha';
import { signInFlow } from './support/signInFlow';

const w = setUpMailApi('auth', { HCAPTCHA_SECRET: undefined, STRIPE_SECRET_KEY: undefined });

const { nextIp, nextEmail, codeSentTo, requestCode, confirm, codeAndWrongGuess, signIn, handoffCode, handoff, browserOfCode, nonceCookieOf } =
  signInFlow(w);

describe('POST v1/auth/email → confirm → token/exchange', () => {
  test('e-mails a 6-digit code, stored only hashed, valid 10 minutes', async () => {
    const email = nextEmail('jane');
    const started = Date.now();
    const r = await requestCode(email);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ data: { sent: true } });

    const code = await codeSentTo(email);
    expect(code).toMatch(/^\d{6}$/);
    const mail = w.smtp.messages.find((m) => m.envelopeTo.includes(email))!;
    expect(mail.subject).toContain(code);
    expect(mail.text).toMatch(/within 10 minutes/);
    expect(mail.html).toContain(code);

    const row = await w.db.db.selectFrom('login_codes').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    const validFor = new Date(row.expires_at).getTime() - started;
    expect(validFor).toBeGreaterThan(9.5 * 60_000);
    expect(validFor).toBeLessThanOrEqual(10 * 60_000 + 5_000);
  });

  test('the right code gives a one-time token; the exchange creates user + org and records attribution', async () => {
    const email = nextEmail('first');
    const session = await signIn(email, { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch', referral: 'friend42' });
    expect(session.email).toBe(email);
    expect(session).not.toHaveProperty('name');

    const claims = await verifyAuthToken(session.authToken);
    expect(claims).toMatchObject({ email, scope: 'full' });
    expect(claims!.orgId).toMatch(/^org_[0-9A-Za-z]{24}$/);

    const user = await w.db.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ id: claims!.userId, org_id: claims!.orgId, role: 'owner', utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch', referral: 'friend42' });
    const org = await w.db.db.selectFrom('orgs').selectAll().where('id', '=', claims!.orgId).executeTakeFirstOrThrow();
    expect(org.plan).toBe('free');
    expect(org.name).toBe('Example'); // the e-mail's domain as a name, not the address (issue 31)
  });

  test('signing in again keeps the same user and org, and the first attribution', async () => {
    const email = nextEmail('again');
    const first = await verifyAuthToken((await signIn(email, { utm_source: 'ads' })).authToken);
    const second = await verifyAuthToken((await signIn(email, { utm_source: 'other', referral: 'x' })).authToken);
    expect(second!.userId).toBe(first!.userId);
    expect(second!.orgId).toBe(first!.orgId);
    const users = await w.db.db.selectFrom('users').selectAll().where('email', '=', email).execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ utm_source: 'ads', referral: null });
    expect(users[0].last_sign_in_at).not.toBeNull();
  });

  test('returns name and displayName when the account has them', async () => {
    const email = nextEmail('named');
    await signIn(email);
    await w.db.db.updateTable('users').set({ name: 'Jane Doe', display_name: 'Jane' }).where('email', '=', email).execute();
    const session = await signIn(email);
    expect(session).toMatchObject({ email, name: 'Jane Doe', displayName: 'Jane' });
  });

  test('the e-mail address is trimmed and compared case-insensitively', async () => {
    const r = await requestCode('  Mixed.Case@Example.COM ');
    expect(r.status).toBe(200);
    const code = await codeSentTo('mixed.case@example.com');
    const ok = await confirm('MIXED.case@example.com', code);
    expect(ok.status).toBe(200);
  });

  test('a sign-in token works once', async () => {
    const email = nextEmail('once');
    const ip = nextIp();
    await requestCode(email, ip);
    const { json } = await confirm(email, await codeSentTo(email), ip);
    const first = await call(w.api, 'POST', '/api/v1/auth/token/exchange', { token: json.data.token, metadata: {} }, { ip });
    expect(first.status).toBe(200);
    const again = await call(w.api, 'POST', '/api/v1/auth/token/exchange', { token: json.data.token, metadata: {} }, { ip });
    expect(again.status).toBe(401);
    expect(again.json.error).toEqual({ code: 'token_invalid', message: 'This sign-in token has expired or was already used. Sign in again.' });
  });

  test('an expired sign-in token is refused', async () => {
    const email = nextEmail('stale');
    const ip = nextIp();
    await requestCode(email, ip);
    const { json } = await confirm(email, await codeSentTo(email), ip);
    await w.db.db.updateTable('sign_in_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('email', '=', email).execute();
    const r = await call(w.api, 'POST', '/api/v1/auth/token/exchange', { token: json.data.token }, { ip });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('token_invalid');
  });

  test('metadata may be missing, null or partial', async () => {
    for (const metadata of [undefined, null, { utm_source: null }]) {
      const email = nextEmail('meta');
      const ip = nextIp();
      await requestCode(email, ip);
      const { json } = await confirm(email, await codeSentTo(email), ip);
      const r = await call(w.api, 'POST', '/api/v1/auth/token/exchange', { token: json.data.token, metadata }, { ip });
      expect(r.status).toBe(200);
    }
  });
});

describe('wrong, expired and used codes', () => {
  test('each wrong try says how many are left; after 5 the code is dead even when right', async () => {
    const email = nextEmail('guess');
    const ip = nextIp();
    const { code, wrong } = await codeAndWrongGuess(email, ip);
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await confirm(email, wrong, ip);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('code_invalid');
      messages.push(r.json.error.message);
    }
    expect(messages).toEqual([
      'That code is wrong. 4 tries left.',
      'That code is wrong. 3 tries left.',
      'That code is wrong. 2 tries left.',
      'That code is wrong. 1 try left.',
      'That code is wrong, and that was the last try. Ask for a new code.',
    ]);
    const right = await confirm(email, code, ip);
    expect(right.status).toBe(400);
    expect(right.json.error).toEqual({ code: 'code_attempts_exceeded', message: 'This code was tried too many times. Ask for a new one.' });

    // A new code works again.
    await requestCode(email, ip);
    const fresh = await codeSentTo(email, 2);
    expect((await confirm(email, fresh, ip)).status).toBe(200);
  });

  test('an expired code says so', async () => {
    const email = nextEmail('late');
    await requestCode(email);
    const code = await codeSentTo(email);
    await w.db.db.updateTable('login_codes').set({ expires_at: new Date(Date.now() - 1000) }).where('email', '=', email).execute();
    const r = await confirm(email, code);
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: 'code_expired', message: 'That code has expired. Ask for a new one.' });
  });

  test('a used code cannot be used again', async () => {
    const email = nextEmail('reuse');
    await requestCode(email);
    const code = await codeSentTo(email);
    expect((await confirm(email, code)).status).toBe(200);
    const again = await confirm(email, code);
    expect(again.status).toBe(400);
    expect(again.json.error.code).toBe('code_not_found');
  });

  test('a new code replaces the previous one', async () => {
    const email = nextEmail('newer');
    const ip = nextIp();
    await requestCode(email, ip);
    const old = await codeSentTo(email, 1);
    await requestCode(email, ip);
    const fresh = await codeSentTo(email, 2);
    if (old !== fresh) {
      const r = await confirm(email, old, ip);
      expect(r.json.error.code).toBe('code_invalid');
    }
    expect((await confirm(email, fresh, ip)).status).toBe(200);
  });

  test('a code for another address does not work', async () => {
    const a = nextEmail('alice');
    const b = nextEmail('bob');
    await requestCode(a);
    await requestCode(b);
    const codeA = await codeSentTo(a);
    const codeB = await codeSentTo(b);
    if (codeA !== codeB) expect((await confirm(b, codeA)).json.error.code).toBe('code_invalid');
  });

  test('no code was asked for', async () => {
    const r = await confirm(nextEmail('never'), '123456');
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: 'code_not_found', message: 'There is no active sign-in code for this e-mail address. Ask for a new one.' });
  });

  test('spaces in a typed code are ignored', async () => {
    const email = nextEmail('spaced');
    await requestCode(email);
    const code = await codeSentTo(email);
    expect((await confirm(email, `${code.slice(0, 3)} ${code.slice(3)}`)).status).toBe(200);
  });
});

describe('validation names the field', () => {
  test.each([
    ['/api/v1/auth/email', { email: 'not-an-email', captcha_token: '' }, /^email: Enter a valid e-mail address\./],
    ['/api/v1/auth/email', { email: 'a@example.com' }, /^captcha_token: /],
    ['/api/v1/auth/email', { email: 42, captcha_token: '' }, /^email: /],
    ['/api/v1/auth/email/confirm', { email: 'a@example.com', code: '12ab56', captcha_token: '' }, /^code: Enter the 6-digit code/],
    ['/api/v1/auth/email/confirm', { email: 'a@example.com', code: 123456, captcha_token: '' }, /^code: /],
    ['/api/v1/auth/token/exchange', { metadata: {} }, /^token: /],
    ['/api/v1/auth/token/exchange', { token: 'x', metadata: { utm_source: 5 } }, /^metadata\.utm_source: /],
    ['/api/v1/auth/token/exchange', { token: 'x', metadata: 'utm' }, /^metadata: /],
    ['/api/v1/auth/token/crm-exchange', { org_id: 'org_short' }, /^org_id: org_id must be 'org_' followed by/],
    ['/api/v1/auth/token/crm-exchange', { org_id: 'usr_aaaaaaaaaaaaaaaaaaaaaaaa' }, /^org_id: /],
    ['/api/v1/auth/token/crm-exchange', {}, /^org_id: /],
  ])('%s %j', async (route, body, message) => {
    const r = await call(w.api, 'POST', route, body, { ip: nextIp() });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_request');
    expect(r.json.error.message).toMatch(message);
  });
});

describe('rate limits', () => {
  test('per (e-mail, network): a second code at once is fine, then the wait grows (30 s, 1 min, …)', async () => {
    const email = nextEmail('flood');
    const ip = nextIp();
    expect((await requestCode(email, ip)).status).toBe(200);
    expect((await requestCode(email, ip)).status).toBe(200);
    const r = await requestCode(email, ip);
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('rate_limited');
    expect(r.json.error.message).toMatch(/You asked for several codes in a row/);
    const retryAfter = Number(r.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(20);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // The same address from another network is not held back by this one.
    expect((await requestCode(email, nextIp())).status).toBe(200);
  });

  test("per e-mail: the inbox gets at most 20 codes an hour, whatever the networks", async () => {
    w.setEnv({ SMTP_URL: undefined });
    const email = nextEmail('inbox');
    for (let i = 0; i < 20; i++) expect((await requestCode(email)).status).toBe(200);
    const r = await requestCode(email);
    expect(r.status).toBe(429);
    expect(r.json.error.message).toMatch(/Too many codes were sent to this address/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  test("a stranger asking for codes from another network leaves the victim's pending code working", async () => {
    const email = nextEmail('victim');
    const victimIp = nextIp();
    await requestCode(email, victimIp);
    const victimCode = await codeSentTo(email, 1);
    const strangerIp = nextIp();
    for (let i = 0; i < 2; i++) expect((await requestCode(email, strangerIp)).status).toBe(200);
    expect((await requestCode(email, strangerIp)).status).toBe(429); // and the stranger cannot keep going
    await codeSentTo(email, 3);
    expect((await confirm(email, victimCode, victimIp)).status).toBe(200);
  });

  test("a stranger's wrong guesses do not burn the victim's code", async () => {
    const email = nextEmail('unburnt');
    const victimIp = nextIp();
    await requestCode(email, victimIp);
    const code = await codeSentTo(email);
    const wrong = code === '444444' ? '555555' : '444444';
    const strangerIp = nextIp();
    for (let i = 0; i < 8; i++) {
      const r = await confirm(email, wrong, strangerIp);
      expect(r.json.error.code).toBe('code_invalid');
      expect(r.json.error.message).toBe('That code is wrong. Check the newest sign-in e-mail and try again.');
    }
    const row = await w.db.db.selectFrom('login_codes').select('attempts').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(0);
    expect((await confirm(email, code, victimIp)).status).toBe(200);
  });

  test('per (e-mail, network): the 16th confirm within an hour is refused', async () => {
    const email = nextEmail('guesser');
    await requestCode(email);
    const code = await codeSentTo(email);
    const wrong = code === '666666' ? '777777' : '666666';
    const ip = nextIp();
    for (let i = 0; i < 15; i++) expect((await confirm(email, wrong, ip)).status).toBe(400);
    const r = await confirm(email, wrong, ip);
    expect(r.status).toBe(429);
    expect(r.json.error.message).toMatch(/Too many tries for this address from your network/);
  });

  test('a daily cap of confirm attempts per e-mail stops guessing from many networks; the requester can still sign in', async () => {
    const email = nextEmail('daily');
    const ownIp = nextIp();
    await requestCode(email, ownIp);
    const code = await codeSentTo(email);
    const wrong = code === '888888' ? '999999' : '888888';
    for (let i = 0; i < 50; i++) expect((await confirm(email, wrong)).status).toBe(400);
    const stopped = await confirm(email, code, nextIp()); // even the right code, from a stranger's network
    expect(stopped.status).toBe(429);
    expect(stopped.json.error.message).toMatch(/Too many sign-in attempts for this address today/);
    expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(86_000);
    expect((await confirm(email, code, ownIp)).status).toBe(200);
  });

  test('per IP: the 21st code request from one address is refused', async () => {
    w.setEnv({ SMTP_URL: undefined }); // the outbox is quicker for 20 e-mails
    const ip = nextIp();
    for (let i = 0; i < 20; i++) expect((await requestCode(nextEmail('many'), ip)).status).toBe(200);
    const r = await requestCode(nextEmail('many'), ip);
    expect(r.status).toBe(429);
    expect(r.json.error.message).toMatch(/from your network/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not affected.
    expect((await requestCode(nextEmail('other'))).status).toBe(200);
  });

  test('per IP: the 31st confirm within 10 minutes is refused', async () => {
    const ip = nextIp();
    for (let i = 0; i < 30; i++) expect((await confirm(nextEmail('probe'), '123456', ip)).status).toBe(400);
    const r = await confirm(nextEmail('probe'), '123456', ip);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(600);
  });

  test('IPv6 clients are counted per /64', async () => {
    w.setEnv({ SMTP_URL: undefined });
    for (let i = 0; i < 20; i++) expect((await requestCode(nextEmail('v6'), `2001:db8:1:2::${(i + 1).toString(16)}`)).status).toBe(200);
    const r = await requestCode(nextEmail('v6'), '2001:db8:1:2:ffff::1');
    expect(r.status).toBe(429);
  });
});

describe('captcha (HCAPTCHA_SECRET set)', () => {
  let captcha: FakeHcaptcha;
  beforeAll(async () => {
    captcha = await startFakeHcaptcha({ secret: 'hc-secret', validTokens: ['pass-1', 'pass-2', 'pass-3'] });
  });
  afterAll(() => captcha.close());
  const withCaptcha = () =>
    w.setEnv({ HCAPTCHA_SECRET: 'hc-secret', HCAPTCHA_VERIFY_URL: captcha.verifyUrl, NEXT_PUBLIC_HCAPTCHA_SITEKEY: 'site-key-1' });

  test('a valid token passes; siteverify receives secret, response, remoteip and sitekey', async () => {
    withCaptcha();
    const email = nextEmail('human');
    const ip = nextIp();
    const r = await call(w.api, 'POST', '/api/v1/auth/email', { email, captcha_token: 'pass-1' }, { ip });
    expect(r.status).toBe(200);
    const [verify] = await captcha.waitForRequests(1, (q) => q.body.includes('pass-1'));
    const form = new URLSearchParams(verify.body);
    expect(verify.headers['content-type']).toMatch(/application\/x-www-form-urlencoded/);
    expect(form.get('secret')).toBe('hc-secret');
    expect(form.get('response')).toBe('pass-1');
    expect(form.get('remoteip')).toBe(ip);
    expect(form.get('sitekey')).toBe('site-key-1');

    const code = await codeSentTo(email);
    const ok = await call(w.api, 'POST', '/api/v1/auth/email/confirm', { email, code, captcha_token: 'pass-2' }, { ip });
    expect(ok.status).toBe(200);
  });

  test.each([
    ['an empty token', ''],
    ['a wrong token', 'bot-token'],
    ['a token used before', 'pass-1'],
  ])('%s → 400 captcha_failed, and no e-mail is sent', async (_label, token) => {
    withCaptcha();
    const email = nextEmail('bot');
    const r = await call(w.api, 'POST', '/api/v1/auth/email', { email, captcha_token: token }, { ip: nextIp() });
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: 'captcha_failed', message: 'The captcha check did not pass. Solve it again and retry.' });
    const codes = await w.db.db.selectFrom('login_codes').select('id').where('email', '=', email).execute();
    expect(codes).toHaveLength(0);
  });

  test('confirm checks the captcha too', async () => {
    withCaptcha();
    const r = await call(w.api, 'POST', '/api/v1/auth/email/confirm', { email: nextEmail('c'), code: '123456', captcha_token: 'nope' }, { ip: nextIp() });
    expect(r.json.error.code).toBe('captcha_failed');
  });

  test('siteverify unreachable → 502 with a message, not a hang', async () => {
    const down = await startFakeHcaptcha({ secret: 'hc-secret' });
    await down.close();
    w.setEnv({ HCAPTCHA_SECRET: 'hc-secret', HCAPTCHA_VERIFY_URL: down.verifyUrl });
    const r = await call(w.api, 'POST', '/api/v1/auth/email', { email: nextEmail('x'), captcha_token: 'pass-3' }, { ip: nextIp() });
    expect(r.status).toBe(502);
    expect(r.json.error.message).toBe('We could not check the captcha right now. Try again in a minute.');
  });
});

describe('e-mail delivery', () => {
  test('without SMTP_URL the code e-mail lands in DATA_DIR/outbox', async () => {
    w.setEnv({ SMTP_URL: undefined });
    const email = nextEmail('outbox');
    const ip = nextIp();
    expect((await requestCode(email, ip)).status).toBe(200);
    const outbox = path.join(w.dataDir, 'outbox');
    const file = fs.readdirSync(outbox).find((f) => f.includes(email));
    expect(file).toBeDefined();
    const mail = parseMessage(fs.readFileSync(path.join(outbox, file!), 'utf8'));
    expect(mail.to).toBe(email);
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    expect((await confirm(email, code, ip)).status).toBe(200);
  });

  test('a mail server that is down → 502 with a message', async () => {
    const dead = await startFakeSmtp();
    await dead.close();
    w.setEnv({ SMTP_URL: dead.url });
    const r = await requestCode(nextEmail('nomail'));
    expect(r.status).toBe(502);
    expect(r.json.error.message).toBe('We could not send the e-mail right now. Try again in a minute.');
  });
});

const renew = (refreshToken: string, ip = nextIp()) => call<{ authToken: string }>(w.api, 'POST', '/api/v1/auth/token/renew', { refresh_token: refreshToken }, { ip });
const refresh = (token: string) => call(w.api, 'GET', '/api/v1/auth/token/refresh', undefined, { token });

describe('sessions: short access tokens, refresh tokens, revocation', () => {
  test('a sign-in gives a 15-minute access token and a refresh token, both naming one session', async () => {
    const session = await signIn(nextEmail('session'));
    const claims = (await verifyAuthToken(session.authToken))!;
    expect(claims.sessionId).toMatch(/^ses_[0-9A-Za-z]{24}$/);
    const exp = decodeJwt(session.authToken).exp! * 1000;
    expect(exp - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(exp - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    const row = await w.db.db.selectFrom('auth_sessions').selectAll().where('id', '=', claims.sessionId!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: claims.userId, revoked_at: null });
    // The refresh token is no access token.
    expect(await verifyAuthToken(session.refreshToken)).toBeNull();
    expect((await refresh(session.refreshToken)).status).toBe(401);
  });

  test('renew gives a new access token for the same session', async () => {
    const session = await signIn(nextEmail('renew'));
    const r = await renew(session.refreshToken);
    expect(r.status).toBe(200);
    const before = (await verifyAuthToken(session.authToken))!;
    expect(await verifyAuthToken(r.json.data.authToken)).toEqual(before);
    expect((await renew(session.authToken)).status).toBe(401); // an access token is no refresh token
  });

  test('POST v1/auth/logout revokes every token of that sign-in at once: access, refresh, renew → 401; other sessions live on', async () => {
    const email = nextEmail('logout');
    const session = await signIn(email);
    const other = await signIn(email);
    const renewed = (await renew(session.refreshToken)).json.data.authToken;
    const code = await handoffCode(session.authToken);

    const out = await call(w.api, 'POST', '/api/v1/auth/logout', {}, { token: session.authToken });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ data: { ok: true } });

    for (const token of [session.authToken, renewed]) {
      const r = await refresh(token);
      expect(r.status).toBe(401);
      expect(r.json.error.message).toBe('Your session has expired. Sign in again.');
    }
    const r = await renew(session.refreshToken);
    expect(r.status).toBe(401);
    expect(r.json.error.message).toBe('Your session has ended. Sign in again.');
    expect((await handoff(code)).status).toBe(401); // a hand-off code issued before the logout is dead too
    expect((await refresh(other.authToken)).status).toBe(200);
  });

  test('logout with an access token that ran out: the refresh token in the body names the session', async () => {
    const session = await signIn(nextEmail('idle'));
    const sessionId = (await verifyAuthToken(session.authToken))!.sessionId!;
    const { userId, orgId, email } = (await verifyAuthToken(session.authToken))!;
    const expired = await signAccessToken({ userId, orgId, email, sessionId }, -10);
    const out = await call(w.api, 'POST', '/api/v1/auth/logout', { refresh_token: session.refreshToken }, { token: expired });
    expect(out.status).toBe(200);
    expect((await renew(session.refreshToken)).status).toBe(401);
    // Nothing to name a session by → 401.
    expect((await call(w.api, 'POST', '/api/v1/auth/logout', {}, { token: expired })).status).toBe(401);
    expect((await call(w.api, 'POST', '/api/v1/auth/logout', {})).status).toBe(401);
  });

  test('a revocation made by another process is seen within the cache period', async () => {
    const session = await signIn(nextEmail('elsewhere'));
    expect((await refresh(session.authToken)).status).toBe(200); // cached as live here
    const sid = (await verifyAuthToken(session.authToken))!.sessionId!;
    // Another process revokes it: only the database changes, not this process's cache.
    await w.db.db.updateTable('auth_sessions').set({ revoked_at: new Date() }).where('id', '=', sid).execute();
    await new Promise((r) => setTimeout(r, SESSION_CACHE_MS + 200));
    expect((await refresh(session.authToken)).status).toBe(401);
  });

  test('sign out everywhere ends every session of the user, and only theirs', async () => {
    const email = nextEmail('everywhere');
    const a = await signIn(email);
    const b = await signIn(email);
    const stranger = await signIn(nextEmail('bystander'));
    const r = await call<{ ok: true; sessions: number }>(w.api, 'POST', '/api/v1/auth/logout/everywhere', {}, { token: a.authToken });
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ ok: true, sessions: 2 });
    for (const s of [a, b]) {
      expect((await refresh(s.authToken)).status).toBe(401);
      expect((await renew(s.refreshToken)).status).toBe(401);
    }
    expect((await refresh(stranger.authToken)).status).toBe(200);
    expect((await call(w.api, 'POST', '/api/v1/auth/logout/everywhere', {})).status).toBe(401);
  });

  test('a token signed before sessions existed (no session id) is refused', async () => {
    const legacy = await new SignJWT({ org: 'org_x', email: 'a@example.com', scope: 'full' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('usr_x')
      .setIssuer('arb')
      .setExpirationTime(Math.floor(Date.now() / 1000) + 3600)
      .sign(new TextEncoder().encode(env().AUTH_SECRET));
    expect((await refresh(legacy)).status).toBe(401);
  });
});

describe('GET v1/auth/token/refresh → dashboard hand-off code', () => {
  test('gives a one-time code (not a token) that POST v1/auth/token/handoff exchanges once for the session', async () => {
    const email = nextEmail('handoff');
    const session = await signIn(email);
    const code = await handoffCode(session.authToken);
    expect(code.split('.')).toHaveLength(1); // not a JWT: nothing to read, nothing that works as a bearer
    expect((await refresh(code)).status).toBe(401);

    const rows = await w.db.db.selectFrom('handoff_codes').selectAll().execute();
    expect(rows.some((r) => r.code_hash.includes(code))).toBe(false);

    const first = await handoff(code);
    expect(first.status).toBe(200);
    expect(first.json.data.email).toBe(email);
    expect((await verifyAuthToken(first.json.data.authToken))!.sessionId).toBe((await verifyAuthToken(session.authToken))!.sessionId);
    expect((await renew(first.json.data.refreshToken)).status).toBe(200);

    const again = await handoff(code);
    expect(again.status).toBe(401);
    expect(again.json.error).toEqual({ code: 'code_invalid', message: 'This dashboard link has expired or was already used. Open the dashboard again.' });
  });

  test('a code works only in the browser that asked for it (its nonce cookie): a link opened elsewhere is refused and stays unused', async () => {
    const session = await signIn(nextEmail('handoff-browser'));
    const first = await call<{ token: string }>(w.api, 'GET', '/api/v1/auth/token/refresh', undefined, { token: session.authToken });
    const cookie = nonceCookieOf(first);
    expect(first.headers.get('set-cookie')).toMatch(/^arb_handoff_nonce=[\w-]{24,64}; Path=\/api\/v1\/auth\/token; Max-Age=300; HttpOnly; SameSite=Lax$/);
    const code = first.json.data.token;
    const rows = await w.db.db.selectFrom('handoff_codes').select(['nonce_hash']).execute();
    expect(rows.every((r) => !r.nonce_hash || !r.nonce_hash.includes(cookie.split('=')[1]))).toBe(true);

    // Someone else's browser (no cookie, or its own) cannot take it — the login-CSRF a sent link would be.
    const stranger = await handoffCode((await signIn(nextEmail('handoff-stranger'))).authToken);
    for (const other of ['', browserOfCode.get(stranger)!, 'arb_handoff_nonce=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const r = await handoff(code, nextIp(), other);
      expect(r.status, other).toBe(401);
      expect(r.json.error.code).toBe('code_other_browser');
    }
    // A second code asked by the same browser keeps its nonce, so both tabs' codes work.
    const second = await call<{ token: string }>(w.api, 'GET', '/api/v1/auth/token/refresh', undefined, { token: session.authToken, headers: { Cookie: cookie } });
    expect(nonceCookieOf(second)).toBe(cookie);
    expect((await handoff(code, nextIp(), cookie)).status).toBe(200);
    expect((await handoff(second.json.data.token, nextIp(), cookie)).status).toBe(200);
  });

  test('a code is valid at most 60 seconds', async () => {
    const session = await signIn(nextEmail('handoff-late'));
    const started = Date.now();
    const code = await handoffCode(session.authToken);
    const row = await w.db.db.selectFrom('handoff_codes').selectAll().orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime() - started).toBeLessThanOrEqual(61_000);
    await w.db.db.updateTable('handoff_codes').set({ expires_at: new Date(Date.now() - 1000) }).where('code_hash', '=', row.code_hash).execute();
    expect((await handoff(code)).status).toBe(401);
  });

  test('without a token → 401 "Sign in to continue."', async () => {
    const r = await call(w.api, 'GET', '/api/v1/auth/token/refresh');
    expect(r.status).toBe(401);
    expect(r.json.error).toEqual({ code: 'unauthorized', message: 'Sign in to continue.' });
  });

  test.each([
    ['garbage', 'not-a-jwt'],
    ['a forged signature', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfeCIsIm9yZyI6Im9yZ194IiwiZW1haWwiOiJhQGIuY28iLCJzY29wZSI6ImZ1bGwiLCJpc3MiOiJhcmIifQ.c2lnbmF0dXJl'],
  ])('with %s → 401', async (_label, token) => {
    const r = await refresh(token);
    expect(r.status).toBe(401);
    expect(r.json.error.message).toBe('Your session has expired. Sign in again.');
  });

  test('an expired token → 401', async () => {
    const live = await sessionFor({ userId: 'usr_expired', orgId: 'org_expired', email: 'expired@example.com' });
    const sessionId = (await verifyAuthToken(live.authToken))!.sessionId!;
    const token = await signAccessToken({ userId: 'usr_expired', orgId: 'org_expired', email: 'expired@example.com', sessionId }, -10);
    expect((await refresh(token)).status).toBe(401);
  });

  test('a deleted account → 401', async () => {
    const token = await accessTokenFor({ userId: 'usr_gone', orgId: 'org_gone', email: 'gone@example.com' });
    await w.db.db.deleteFrom('users').where('id', '=', 'usr_gone').execute(); // its sessions go with it
    expect((await refresh(token)).status).toBe(401);
  });
});

describe('POST v1/auth/token/crm-exchange (an org id is not a key)', () => {
  test("an org id gives a billing-only token and the owner's masked e-mail; the token holds no address", async () => {
    const email = nextEmail('owner');
    const session = await signIn(email);
    const { orgId, userId } = (await verifyAuthToken(session.authToken))!;
    const r = await call<{ authToken: string; email: string }>(w.api, 'POST', '/api/v1/auth/token/crm-exchange', { org_id: orgId }, { ip: nextIp() });
    expect(r.status).toBe(200);
    expect(r.json.data.email).toBe('o***@example.com');
    expect(r.text).not.toContain(email);
    expect(JSON.stringify(decodeJwt(r.json.data.authToken))).not.toContain(email);
    expect(await verifyAuthToken(r.json.data.authToken)).toEqual({ userId, orgId, email: '', scope: 'billing' });
  });

  test('the billing token is refused outside checkout: refresh, logout, portal (403); purchase accepts it', async () => {
    const session = await signIn(nextEmail('billing'));
    const { orgId } = (await verifyAuthToken(session.authToken))!;
    const { json } = await call<{ authToken: string }>(w.api, 'POST', '/api/v1/auth/token/crm-exchange', { org_id: orgId }, { ip: nextIp() });
    for (const [method, path] of [['GET', '/api/v1/auth/token/refresh'], ['POST', '/api/v1/auth/logout/everywhere'], ['POST', '/api/v1/stripe/portal']] as const) {
      const r = await call(w.api, method, path, method === 'POST' ? {} : undefined, { token: json.data.authToken });
      expect(r.status, path).toBe(403);
      expect(r.json.error.message).toBe('This token is limited to billing and cannot be used here.');
    }
    // Purchase accepts it (and says billing is off on this server rather than refusing the token).
    const purchase = await call(w.api, 'POST', '/api/v1/org/billing/purchase', { price_id: 'price_pro' }, { token: json.data.authToken });
    expect(purchase.status).toBe(503);
    // It is no refresh token either.
    expect((await renew(json.data.authToken)).status).toBe(401);
  });
  test('an unknown org id → 404 that says no more than that', async () => {
    const r = await call(w.api, 'POST', '/api/v1/auth/token/crm-exchange', { org_id: 'org_AAAAAAAAAAAAAAAAAAAAAAAA' }, { ip: nextIp() });
    expect(r.status).toBe(404);
    expect(r.json.error).toEqual({ code: 'not_found', message: 'We could not find that organization. Check the link you followed.' });
  });

  test('guessing org ids is rate limited per IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < 30; i++) {
      expect((await call(w.api, 'POST', '/api/v1/auth/token/crm-exchange', { org_id: `org_${'B'.repeat(23)}${i % 10}` }, { ip })).status).toBe(404);
    }
    const r = await call(w.api, 'POST', '/api/v1/auth/token/crm-exchange', { org_id: `org_${'C'.repeat(24)}` }, { ip });
    expect(r.status).toBe(429);
  });
});
