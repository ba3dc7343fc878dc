/**
 * The language-model tokens all visitors (no account) may use together per UTC day: ASK_ARB_VISITOR_DAILY_TOKENS, one
 * counter for the whole server in `rate_limits` (key `ask-arb:visitor-tokens:<day>`, its window ending at the next
 * midnight, so the daily sweep of expired limits removes it), shared by every process on the database.
 *
 * Each model call reserves its most (prompt + max_tokens) with one atomic add before it is sent: a reservation that
 * takes the day's count past the budget is taken back and refused, so racing questions cannot pass it together.
 * After the call the reservation is corrected to what the model reported (or the client's estimate).
 */
import { sql } from 'kysely';
import { getDb } from '../db/client';
import { env } from '../env';
import { tooManyRequests } from '../http/errors';
import { LlmError } from '../ai/llm/errors';
import type { TokenMeter } from '../ai/llm/client';

const DAY_MS = 86_400_000;

export const VISITOR_BUDGET_SPENT =
  'Ask ARB has used all the answers it gives visitors without an account today. Try again tomorrow, or sign in to ask about your organisation’s apps with your plan.';

const dayOf = (now: Date) => now.toISOString().slice(0, 10);
const keyFor = (now: Date) => `ask-arb:visitor-tokens:${dayOf(now)}`;
const nextMidnight = (now: Date) => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);

/** Adds `tokens` (negative to give back) to the day's count, atomically; the count after it. */
async function addVisitorTokens(tokens: number, now: Date): Promise<number> {
  const db = await getDb();
  const row = await db
    .insertInto('rate_limits')
    .values({ key: keyFor(now), count: Math.max(0, tokens), window_ends_at: nextMidnight(now) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ count: sql<number>`greatest(0, rate_limits.count + ${tokens})` }))
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Tokens visitors have used today (reservations in flight included). */
export async function visitorTokensUsed(now = new Date()): Promise<number> {
  const db = await getDb();
  const row = await db.selectFrom('rate_limits').select('count').where('key', '=', keyFor(now)).executeTakeFirst();
  return Number(row?.count ?? 0);
}

const secondsToMidnight = (now: Date) => Math.ceil((nextMidnight(now).getTime() - now.getTime()) / 1000);

/** Before a visitor's question is counted: 429 with Retry-After (the next UTC midnight) once the day's budget is spent. */
export async function assertVisitorTokensLeft(now = new Date()): Promise<void> {
  const budget = env().ASK_ARB_VISITOR_DAILY_TOKENS;
  if (!budget) return;
  if ((await visitorTokensUsed(now)) >= budget) throw tooManyRequests(secondsToMidnight(now), VISITOR_BUDGET_SPENT);
}

/** The meter a visitor's model calls go through (none when the budget is 0, no limit). */
export function visitorTokenMeter(): TokenMeter | undefined {
  const budget = env().ASK_ARB_VISITOR_DAILY_TOKENS;
  if (!budget) return undefined;
  // A question's calls run one after another: each settles on the day it reserved on, even past midnight.
  let reservedOn = new Date();
  return {
    async reserve(tokens) {
      reservedOn = new Date();
      const count = await addVisitorTokens(tokens, reservedOn);
      if (count > budget) {
        await addVisitorTokens(-tokens, reservedOn);
        throw new LlmError(VISITOR_BUDGET_SPENT, 'budget', 429);
      }
    },
    async settle(reserved, used) {
      if (used !== reserved) await addVisitorTokens(used - reserved, reservedOn);
    },
  };
}
