/**
 * Who calls the public API: the `arb_` key in `Authorization: Bearer …`, checked against the organisation's active keys,
 * and counted against the key's rate (PUBLIC_API_RATE_PER_MINUTE, a fixed one-minute window shared by every process
 * through the database). The answer carries X-RateLimit-Limit and X-RateLimit-Remaining so scripts can slow down
 * before they are refused; past the rate they get 429 with Retry-After. Each call is also counted in the organisation's
 * month (the plan's `api_calls` allowance; a plan without the API gets 402 naming the plan that includes it).
 *
 * Memory only when warm: the key, its organisation's plan and month (keyState.ts, PUBLIC_API_CACHE_MS), the rate's
 * reserved hits, the month's calls and the key's last use (callCounts.ts, written in batches every second). A warm
 * call returns its caller without a promise. What that trades, and how far: keyState.ts and callCounts.ts.
 */
import { env } from '../env';
import { tooManyRequests, unauthorized } from '../http/errors';
import { planLimitError } from '../plans/limits';
import { planFor } from '../plans/plans';
import { usageMonth } from '../plans/data';
import { countCall, noteKeyUse, takeRateHit, type RateAnswer } from './callCounts';
import { knownOrg, loadOrg, type KnownKey, type KnownOrg } from './keyState';
import { verifyApiKey } from './service';

export type ApiKeyCaller = { keyId: string; orgId: string };
type Answer = { setHeader(name: string, value: string): void };

const HOW = 'Send an API key as `Authorization: Bearer arb_…`; an admin creates one in the dashboard under API keys.';
const notValid = () => unauthorized(`This API key is not valid: it was revoked or mistyped. ${HOW}`);

/**
 * The key's caller, or a 401 that says what was wrong; a 429 past the key's rate; a 402 past the plan. Without a
 * promise when everything it needs is in memory.
 */
export function authenticateApiKey(presented: string | null, answer: Answer): ApiKeyCaller | Promise<ApiKeyCaller> {
  if (!presented) throw unauthorized(`This call needs an API key. ${HOW}`);
  const key = verifyApiKey(presented);
  return key instanceof Promise ? key.then((k) => withKey(k, answer)) : withKey(key, answer);
}

function withKey(key: KnownKey | null, answer: Answer): ApiKeyCaller | Promise<ApiKeyCaller> {
  if (!key) throw notValid();
  noteKeyUse(key.keyId, key.lastUsedAt);
  const month = usageMonth(new Date());
  const org = knownOrg(key.orgId, month);
  return org === undefined ? loadOrg(key.orgId, month).then((o) => withOrg(key, o, month, answer)) : withOrg(key, org, month, answer);
}

function withOrg(key: KnownKey, org: KnownOrg | null, month: string, answer: Answer): ApiKeyCaller | Promise<ApiKeyCaller> {
  // The organisation was deleted (its keys with it) in another process since the key was read.
  if (!org) throw notValid();
  const limit = env().PUBLIC_API_RATE_PER_MINUTE;
  const hit = takeRateHit(key.keyId, limit);
  return hit instanceof Promise ? hit.then((h) => decide(key, org, month, limit, h, answer)) : decide(key, org, month, limit, hit, answer);
}

function decide(key: KnownKey, org: KnownOrg, month: string, limit: number, hit: RateAnswer, answer: Answer): ApiKeyCaller {
  answer.setHeader('X-RateLimit-Limit', String(limit));
  answer.setHeader('X-RateLimit-Remaining', String(hit.remaining));
  if (!hit.allowed) {
    const retryAfter = Math.max(1, Math.ceil((hit.windowEndsAt - Date.now()) / 1000));
    throw tooManyRequests(retryAfter, `This API key made more than ${limit} requests in a minute. Wait ${retryAfter} s (Retry-After) and slow down.`);
  }
  // Refused (402) when the plan does not include the API (not counted), and when the month's calls, this one counted,
  // pass its allowance (so the count says how much was asked for).
  const plan = planFor(org);
  if (!plan.features.api) throw planLimitError('api_calls', 0, plan.name, 0);
  const used = countCall(key.orgId, month, org.apiCalls);
  const allowance = plan.limits.api_calls;
  if (allowance !== null && used > allowance) throw planLimitError('api_calls', allowance, plan.name, used);
  return { keyId: key.keyId, orgId: key.orgId };
}
