/**
 * Sign-in by e-mail code:
 *   1. requestSignInCode — a 6-digit code, stored hashed, valid 10 minutes, e-mailed. It replaces only the earlier
 *      codes asked for from the same network (IPv4 address or IPv6 /64): a stranger asking for a code for your address
 *      from elsewhere leaves your pending code alone.
 *   2. confirmSignInCode — the right code of any pending one gives a one-time sign-in token (10 minutes) that
 *      /auth/token/exchange turns into a session. Wrong guesses spend the tries (5) of the guessing network's own code
 *      only, so nobody can burn someone else's code.
 * Limits (SIGN_IN_LIMITS): per network; per (e-mail, network) with a growing wait between codes; per address (the
 * inbox); a daily cap of confirm attempts per address. The captcha is checked when configured.
 */
import { HttpError, badGateway, tooManyRequests } from '../http/errors';
import { enforceRateLimit, hitRateLimit, ipRateKey, type RateLimitRule } from '../http/rateLimit';
import { MailDeliveryError, sendMail } from '../mail/send';
import { verifyCaptcha } from './captcha';
import { signInCodeEmail } from './codeEmail';
import {
  MAX_CODE_ATTEMPTS,
  consumeLoginCode,
  createLoginCode,
  createSignInToken,
  getLatestLoginCodesPerNetwork,
  recordLoginCodeAttempt,
  type LoginCode,
} from './data';
import { keyedHash, newLoginCode, newSignInToken, sameHash } from './secrets';

const CODE_VALID_MINUTES = 10;
const SIGN_IN_TOKEN_VALID_MINUTES = 10;

const SIGN_IN_LIMITS = {
  codesPerIp: { name: 'auth-email:ip', limit: 20, windowSeconds: 3600 },
  codesPerEmailAndIp: { name: 'auth-email:email-ip', limit: 10, windowSeconds: 3600 },
  codesPerEmail: { name: 'auth-email:email', limit: 20, windowSeconds: 3600 },
  confirmsPerIp: { name: 'auth-confirm:ip', limit: 30, windowSeconds: 600 },
  confirmsPerEmailAndIp: { name: 'auth-confirm:email-ip', limit: 15, windowSeconds: 3600 },
  confirmsPerEmailDaily: { name: 'auth-confirm:email', limit: 50, windowSeconds: 86_400 },
} satisfies Record<string, RateLimitRule>;

/**
 * The wait after the n-th code of an hour for one (address, network): none after the first (a quick "send again"
 * is normal), then 30 s, 1, 2, 4 and 8 minutes.
 */
export function codeRequestBackoffSeconds(n: number): number {
  return n <= 1 ? 0 : 15 * 2 ** Math.min(n - 1, 5);
}

/** The key of a code's hash: the same digits sent to two addresses hash differently. */
const codeHashInput = (email: string, code: string) => `${email}\n${code}`;
/** The network a request came from, as stored with a code (keyed hash: the table holds no addresses). */
const networkHash = (ip: string) => keyedHash('sign-in-network', ipRateKey(ip));

async function enforceCodeRequestBackoff(email: string, ip: string, now: Date): Promise<void> {
  const key = `${email}|${ipRateKey(ip)}`;
  const hour = await hitRateLimit(SIGN_IN_LIMITS.codesPerEmailAndIp, key, { now });
  const wait = 'You asked for several codes in a row. Check your inbox (and spam folder), or wait a little before asking again.';
  if (!hour.allowed) throw tooManyRequests(hour.retryAfterSeconds, wait);
  const gap = codeRequestBackoffSeconds(hour.count);
  if (gap === 0) return;
  const spacing = await hitRateLimit({ name: 'auth-email:gap', limit: 1, windowSeconds: gap }, key, { now });
  if (!spacing.allowed) throw tooManyRequests(spacing.retryAfterSeconds, wait);
}

export async function requestSignInCode(input: { email: string; captchaToken: string; ip: string; now?: Date }): Promise<void> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SIGN_IN_LIMITS.codesPerIp, ipRateKey(input.ip), 'Too many sign-in codes were asked for from your network. Try again later.', { now });
  await verifyCaptcha(input.captchaToken, input.ip);
  await enforceCodeRequestBackoff(input.email, input.ip, now);
  await enforceRateLimit(SIGN_IN_LIMITS.codesPerEmail, input.email, 'Too many codes were sent to this address. Wait a little, then ask again.', { now });

  const code = newLoginCode();
  await createLoginCode({
    email: input.email,
    codeHash: keyedHash('login-code', codeHashInput(input.email, code)),
    expiresAt: new Date(now.getTime() + CODE_VALID_MINUTES * 60_000),
    requesterHash: networkHash(input.ip),
  });
  try {
    await sendMail(signInCodeEmail({ to: input.email, code, validMinutes: CODE_VALID_MINUTES }));
  } catch (err) {
    if (err instanceof MailDeliveryError) throw badGateway('We could not send the e-mail right now. Try again in a minute.');
    throw err;
  }
}

const codeError = (code: string, message: string) => new HttpError(400, code, message);

function triesLeftMessage(left: number): string {
  if (left <= 0) return 'That code is wrong, and that was the last try. Ask for a new code.';
  return `That code is wrong. ${left} ${left === 1 ? 'try' : 'tries'} left.`;
}

const isLive = (c: LoginCode, now: Date) => !c.consumed_at && new Date(c.expires_at).getTime() > now.getTime();

/**
 * Check a code; the right one returns a one-time sign-in token. The code the confirming network asked for is the
 * "own" code: a wrong guess spends one of its tries. Guesses from elsewhere spend no code's tries; they count against
 * the address's daily cap, which — once reached — leaves only the own code open, so the person who asked for a code
 * can still use it while a stranger guessing against it is stopped.
 */
export async function confirmSignInCode(input: { email: string; code: string; captchaToken: string; ip: string; now?: Date }): Promise<string> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SIGN_IN_LIMITS.confirmsPerIp, ipRateKey(input.ip), 'Too many tries from your network. Wait a few minutes, then try again.', { now });
  await verifyCaptcha(input.captchaToken, input.ip);

  const latest = await getLatestLoginCodesPerNetwork(input.email, now);
  const network = networkHash(input.ip);
  const own = latest.find((c) => c.requester_hash === network && isLive(c, now));
  let candidates = latest.filter((c) => isLive(c, now) && Number(c.attempts) < MAX_CODE_ATTEMPTS);
  if (!own && candidates.length === 0) {
    if (latest.some((c) => isLive(c, now))) throw codeError('code_attempts_exceeded', 'This code was tried too many times. Ask for a new one.');
    if (latest.some((c) => !c.consumed_at)) throw codeError('code_expired', 'That code has expired. Ask for a new one.');
    throw codeError('code_not_found', 'There is no active sign-in code for this e-mail address. Ask for a new one.');
  }

  await enforceRateLimit(SIGN_IN_LIMITS.confirmsPerEmailAndIp, `${input.email}|${ipRateKey(input.ip)}`, 'Too many tries for this address from your network. Ask for a new code later.', { now });
  const daily = await hitRateLimit(SIGN_IN_LIMITS.confirmsPerEmailDaily, input.email, { now });
  if (!daily.allowed) {
    if (!own) throw tooManyRequests(daily.retryAfterSeconds, 'Too many sign-in attempts for this address today. Ask for a new code from your own device, or try again tomorrow.');
    candidates = candidates.filter((c) => c.id === own.id);
  }

  // The own code's try is spent first (atomically), so parallel guesses cannot get more than MAX_CODE_ATTEMPTS.
  const used = own ? await recordLoginCodeAttempt(own.id) : undefined;
  if (own && used === undefined) candidates = candidates.filter((c) => c.id !== own.id);
  const hash = keyedHash('login-code', codeHashInput(input.email, input.code));
  const match = candidates.find((c) => sameHash(c.code_hash, hash));
  if (!match) {
    if (own && used === undefined) throw codeError('code_attempts_exceeded', 'This code was tried too many times. Ask for a new one.');
    if (own) throw codeError('code_invalid', triesLeftMessage(MAX_CODE_ATTEMPTS - used!));
    throw codeError('code_invalid', 'That code is wrong. Check the newest sign-in e-mail and try again.');
  }
  if (!(await consumeLoginCode(match.id, now))) {
    throw codeError('code_not_found', 'That code was already used. Ask for a new one.');
  }
  const token = newSignInToken();
  await createSignInToken({
    email: input.email,
    tokenHash: keyedHash('sign-in-token', token),
    expiresAt: new Date(now.getTime() + SIGN_IN_TOKEN_VALID_MINUTES * 60_000),
  });
  return token;
}
