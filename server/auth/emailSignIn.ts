/**
 * Sign-in by e-mail code:
 *   1. requestSignInCode — a 6-digit code, stored hashed, valid 10 minutes, e-mailed.
 *   2. confirmSignInCode — at most 5 tries per code (then a new code is needed); the right code gives a one-time
 *      sign-in token (10 minutes) that /auth/token/exchange turns into a session.
 * Per-IP limits guard both steps, a per-e-mail limit guards the inbox; the captcha is checked when configured.
 */
import { HttpError, badGateway } from '../http/errors';
import { enforceRateLimit, ipRateKey, type RateLimitRule } from '../http/rateLimit';
import { MailDeliveryError, sendMail } from '../mail/send';
import { verifyCaptcha } from './captcha';
import { signInCodeEmail } from './codeEmail';
import {
  MAX_CODE_ATTEMPTS,
  consumeLoginCode,
  createLoginCode,
  createSignInToken,
  getLatestLoginCode,
  recordLoginCodeAttempt,
} from './data';
import { keyedHash, newLoginCode, newSignInToken, sameHash } from './secrets';

export const CODE_VALID_MINUTES = 10;
export const SIGN_IN_TOKEN_VALID_MINUTES = 10;

export const SIGN_IN_LIMITS = {
  codesPerEmail: { name: 'auth-email:email', limit: 5, windowSeconds: 3600 },
  codesPerIp: { name: 'auth-email:ip', limit: 20, windowSeconds: 3600 },
  confirmsPerIp: { name: 'auth-confirm:ip', limit: 30, windowSeconds: 600 },
} satisfies Record<string, RateLimitRule>;

/** The key of a code's hash: the same digits sent to two addresses hash differently. */
const codeHashInput = (email: string, code: string) => `${email}\n${code}`;

export async function requestSignInCode(input: { email: string; captchaToken: string; ip: string; now?: Date }): Promise<void> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SIGN_IN_LIMITS.codesPerIp, ipRateKey(input.ip), 'Too many sign-in codes were asked for from your network. Try again later.', { now });
  await verifyCaptcha(input.captchaToken, input.ip);
  await enforceRateLimit(SIGN_IN_LIMITS.codesPerEmail, input.email, 'Too many codes were sent to this address. Wait a little, then ask again.', { now });

  const code = newLoginCode();
  await createLoginCode({
    email: input.email,
    codeHash: keyedHash('login-code', codeHashInput(input.email, code)),
    expiresAt: new Date(now.getTime() + CODE_VALID_MINUTES * 60_000),
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

/** Check a code; the right one returns a one-time sign-in token. */
export async function confirmSignInCode(input: { email: string; code: string; captchaToken: string; ip: string; now?: Date }): Promise<string> {
  const now = input.now ?? new Date();
  await enforceRateLimit(SIGN_IN_LIMITS.confirmsPerIp, ipRateKey(input.ip), 'Too many tries from your network. Wait a few minutes, then try again.', { now });
  await verifyCaptcha(input.captchaToken, input.ip);

  const latest = await getLatestLoginCode(input.email);
  if (!latest || latest.consumed_at) {
    throw codeError('code_not_found', 'There is no active sign-in code for this e-mail address. Ask for a new one.');
  }
  if (new Date(latest.expires_at).getTime() <= now.getTime()) {
    throw codeError('code_expired', 'That code has expired. Ask for a new one.');
  }
  const used = await recordLoginCodeAttempt(latest.id);
  if (used === undefined) {
    throw codeError('code_attempts_exceeded', 'This code was tried too many times. Ask for a new one.');
  }
  if (!sameHash(latest.code_hash, keyedHash('login-code', codeHashInput(input.email, input.code)))) {
    throw codeError('code_invalid', triesLeftMessage(MAX_CODE_ATTEMPTS - used));
  }
  if (!(await consumeLoginCode(latest.id, now))) {
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
