/**
 * Who calls the public API: the `arb_` key in `Authorization: Bearer …`, checked against the organisation's active keys,
 * and counted against the key's rate (PUBLIC_API_RATE_PER_MINUTE, a fixed one-minute window shared by every process
 * through the database). The answer carries X-RateLimit-Limit and X-RateLimit-Remaining so scripts can slow down
 * before they are refused; past the rate they get 429 with Retry-After. Each call is also counted in the organisation's
 * month (the plan's `api_calls` allowance; a plan without the API gets 402 naming the plan that includes it).
 */
import { env } from '../env';
import { tooManyRequests, unauthorized } from '../http/errors';
import { hitRateLimit } from '../http/rateLimit';
import { countApiCall } from '../plans/limits';
import { verifyApiKey } from './service';

export type ApiKeyCaller = { keyId: string; orgId: string };

const HOW = 'Send an API key as `Authorization: Bearer arb_…`; an admin creates one in the dashboard under API keys.';

/** The key's caller, or a 401 that says what was wrong; a 429 past the key's rate. */
export async function authenticateApiKey(presented: string | null, answer: { setHeader(name: string, value: string): void }): Promise<ApiKeyCaller> {
  if (!presented) throw unauthorized(`This call needs an API key. ${HOW}`);
  const caller = await verifyApiKey(presented);
  if (!caller) throw unauthorized(`This API key is not valid: it was revoked or mistyped. ${HOW}`);
  const limit = env().PUBLIC_API_RATE_PER_MINUTE;
  const rate = await hitRateLimit({ name: 'public-api:key', limit, windowSeconds: 60 }, caller.keyId);
  answer.setHeader('X-RateLimit-Limit', String(limit));
  answer.setHeader('X-RateLimit-Remaining', String(rate.remaining));
  if (!rate.allowed) throw tooManyRequests(rate.retryAfterSeconds, `This API key made more than ${limit} requests in a minute. Wait ${rate.retryAfterSeconds} s (Retry-After) and slow down.`);
  await countApiCall(caller.orgId);
  return caller;
}
