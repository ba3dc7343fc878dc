/**
 * Who calls the public API: the `arb_` key in `Authorization: Bearer …`, checked against the organisation's active keys,
 * and counted against the key's rate (PUBLIC_API_RATE_PER_MINUTE, a fixed one-minute window shared by every process
 * through the database). The answer carries X-RateLimit-Limit and X-RateLimit-Remaining so scripts can slow down
 * before they are refused; past the rate they get 429 with Retry-After. Each call is also counted in the organisation's
 * month (the plan's `api_calls` allowance; a plan without the API gets 402 naming the plan that includes it).
 *
 * Two database round trips per call, both exact across processes: the key with its organisation's plan (one query),
 * then the rate hit and the month's count (one statement, apiKeys/data.ts countKeyCall). The counts stay in the
 * database rather than in a per-process bucket flushed now and then: the rate must hold across processes, and the
 * month's usage (billing, the plan's allowance) must be right the moment it is read.
 */
import { env } from '../env';
import { tooManyRequests, unauthorized } from '../http/errors';
import { planLimitError } from '../plans/limits';
import { planFor } from '../plans/plans';
import { usageMonth } from '../plans/data';
import { countKeyCall } from './data';
import { verifyApiKey } from './service';

export type ApiKeyCaller = { keyId: string; orgId: string };

const HOW = 'Send an API key as `Authorization: Bearer arb_…`; an admin creates one in the dashboard under API keys.';
/** The rate's counter: the same rule name and row as hitRateLimit would use. */
const RATE_RULE = 'public-api:key';

/** The key's caller, or a 401 that says what was wrong; a 429 past the key's rate; a 402 past the plan. */
export async function authenticateApiKey(presented: string | null, answer: { setHeader(name: string, value: string): void }): Promise<ApiKeyCaller> {
  if (!presented) throw unauthorized(`This call needs an API key. ${HOW}`);
  const caller = await verifyApiKey(presented);
  if (!caller) throw unauthorized(`This API key is not valid: it was revoked or mistyped. ${HOW}`);
  const limit = env().PUBLIC_API_RATE_PER_MINUTE;
  const plan = planFor(caller.org);
  const now = new Date();
  const counted = await countKeyCall({
    rateKey: `${RATE_RULE}:${caller.keyId}`,
    limit,
    windowSeconds: 60,
    orgId: caller.orgId,
    month: usageMonth(now),
    countUsage: plan.features.api,
    now,
  });
  answer.setHeader('X-RateLimit-Limit', String(limit));
  answer.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - counted.count)));
  if (counted.count > limit) {
    const retryAfter = Math.max(1, Math.ceil((counted.windowEndsAt.getTime() - now.getTime()) / 1000));
    throw tooManyRequests(retryAfter, `This API key made more than ${limit} requests in a minute. Wait ${retryAfter} s (Retry-After) and slow down.`);
  }
  // Refused (402) when the plan does not include the API, and when the month's calls, this one counted, pass its allowance.
  if (!plan.features.api) throw planLimitError('api_calls', 0, plan.name, 0);
  const allowance = plan.limits.api_calls;
  if (allowance !== null && counted.apiCalls !== null && counted.apiCalls > allowance) throw planLimitError('api_calls', allowance, plan.name, counted.apiCalls);
  return { keyId: caller.keyId, orgId: caller.orgId };
}
