/**
 * Who may ask how much: an organisation its plan's Ask ARB questions a month (402 naming the plan when they are used or
 * not included), a visitor without an account a few questions a day per network (429 with Retry-After).
 */
import { env } from '../env';
import { enforceRateLimit, ipRateKey } from '../http/rateLimit';
import { addAskArbQuestion, getOrgPlan, usageMonth } from '../plans/data';
import { planLimitError } from '../plans/limits';
import { planFor } from '../plans/plans';

/**
 * Counts one question of the organisation in the month's usage, and refuses it (402 naming the plan) when that count
 * passes the plan's allowance, or when the plan has none (refused before counting). One atomic increment decides, so
 * two questions racing for the last one cannot both pass; as with the public API's calls, a refused question is
 * counted too, so the count says how much was asked for.
 */
export async function countOrgQuestion(orgId: string, now = new Date()): Promise<void> {
  const row = await getOrgPlan(orgId);
  if (!row) return;
  const plan = planFor(row, now);
  const limit = plan.limits.ask_arb_questions;
  if (limit === 0) throw planLimitError('ask_arb_questions', 0, plan.name, 0);
  const used = await addAskArbQuestion(orgId, usageMonth(now));
  if (limit !== null && used > limit) throw planLimitError('ask_arb_questions', limit, plan.name, used);
}

const DAY_SECONDS = 86_400;

/** Counts one question from a visitor's network, or refuses it (429) past ASK_ARB_VISITOR_DAILY_QUESTIONS. */
export async function countVisitorQuestion(ip: string): Promise<void> {
  const limit = env().ASK_ARB_VISITOR_DAILY_QUESTIONS;
  const questions = limit === 1 ? 'question' : 'questions';
  await enforceRateLimit(
    { name: 'ask-arb:ip', limit, windowSeconds: DAY_SECONDS },
    ipRateKey(ip),
    limit === 0
      ? 'Ask ARB takes no questions without an account on this server. Sign in to ask about your organisation’s apps.'
      : `Your network has asked its ${limit} Ask ARB ${questions} for today. Try again tomorrow, or sign in to ask about your organisation’s apps with your plan’s questions.`,
  );
}
