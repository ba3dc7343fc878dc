/**
 * Plans that lose nothing: when an organisation has more apps or channels than its plan allows (a downgrade, a failed
 * payment past its grace period, connections claimed at sign-in), the ones over the limit are paused, never deleted —
 * reviews, destinations, their settings and history stay. A paused app is not polled for the organisation and its
 * channels get nothing from it; a paused channel gets nothing delivered. The owner chooses which ones stay active
 * (`chooseActive`); when the plan allows more again (an upgrade, a payment), the paused ones resume by themselves.
 */
import { getDb } from '../db/client';
import { badRequest } from '../http/errors';
import { log } from '../log';
import { setDestinationPaused } from '../monitor/service';
import { activateNeededSources, idleUnneededSources } from '../monitor/sourceDemand';
import { wake } from '../monitor/wake';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { listPlanItems, setAppsPlanPaused, type PlanItems } from './data';
import { planLimitError } from './limits';
import { orgPlanOf } from './plans';
import { forgetOrgApps } from '../publicApi/appsCache';

/** The status reason a channel paused by the plan shows (its public status and the Destinations page). */
export const PLAN_PAUSE_REASON = 'Paused: your plan allows fewer channels. The owner can choose which stay active on the Billing page, or upgrade.';

export type PlanChoice = { apps: string[]; channels: string[] };

/** Items `limit` allows to keep: `keep` ordered first (already active, oldest first), then the rest by age. */
function pick<T extends { paused: boolean }>(items: T[], limit: number | null, idOf: (t: T) => string, prefer: Set<string>): Set<string> {
  if (limit === null) return new Set(items.map(idOf));
  const ranked = [...items].sort((a, b) => rank(a) - rank(b));
  function rank(t: T) {
    // Active ones stay before paused ones are resumed; among active ones, those just claimed are paused first.
    return (t.paused ? 2 : 0) + (prefer.has(idOf(t)) ? 1 : 0);
  }
  return new Set(ranked.slice(0, limit).map(idOf));
}

/**
 * Makes the organisation's active apps and channels fit its plan now: the newest over a limit are paused (those in
 * `pauseFirst`, just claimed, before any other), and paused ones resume while there is room. Returns what changed.
 */
export async function fitToPlan(orgId: string, pauseFirst: Partial<PlanChoice> = {}, now = new Date()): Promise<{ paused: PlanChoice; resumed: PlanChoice }> {
  const [plan, items] = await Promise.all([orgPlanOf(orgId, now), listPlanItems(orgId)]);
  const keepApps = pick(items.apps, plan.limits.apps, (a) => a.app_key, new Set(pauseFirst.apps ?? []));
  const keepChannels = pick(
    items.channels.filter((c) => c.status !== 'pending_confirmation'),
    plan.limits.channels === null ? null : Math.max(0, plan.limits.channels - items.channels.filter((c) => c.status === 'pending_confirmation').length),
    (c) => c.id,
    new Set(pauseFirst.channels ?? []),
  );
  return apply(orgId, items, keepApps, keepChannels);
}

async function apply(orgId: string, items: PlanItems, keepApps: Set<string>, keepChannels: Set<string>) {
  const db = await getDb();
  const pausedApps = await setAppsPlanPaused(orgId, items.apps.filter((a) => !a.paused && !keepApps.has(a.app_key)).map((a) => a.app_key), true);
  const resumedApps = await setAppsPlanPaused(orgId, items.apps.filter((a) => a.paused && keepApps.has(a.app_key)).map((a) => a.app_key), false);
  if (pausedApps.length + resumedApps.length) forgetOrgApps(orgId);
  const pausedChannels: string[] = [];
  const resumedChannels: string[] = [];
  for (const c of items.channels) {
    if (c.status === 'pending_confirmation') continue;
    if (!c.paused && !keepChannels.has(c.id)) {
      await setDestinationPaused(c.id, true, PLAN_PAUSE_REASON, 'plan_limit');
      pausedChannels.push(c.id);
    } else if (c.paused && keepChannels.has(c.id)) {
      await setDestinationPaused(c.id, false);
      resumedChannels.push(c.id);
    }
  }
  if (pausedApps.length) await idleUnneededSources(db, pausedApps);
  if (resumedApps.length && (await activateNeededSources(db, resumedApps))) wake('poll');
  if (resumedApps.length) wake('deliver');
  const changed = { paused: { apps: pausedApps, channels: pausedChannels }, resumed: { apps: resumedApps, channels: resumedChannels } };
  if (pausedApps.length + pausedChannels.length + resumedApps.length + resumedChannels.length) {
    log.info('organisation fitted to its plan', { paused: { apps: pausedApps.length, channels: pausedChannels.length }, resumed: { apps: resumedApps.length, channels: resumedChannels.length } });
  }
  return changed;
}

/**
 * The owner's choice of what stays active: exactly the apps and channels listed are active afterwards (within the
 * plan's limits: more is a 402 naming the plan that allows them), the others are paused. Only apps and channels
 * that are active or paused by the plan can be chosen (one its owner paused or a receiver disabled is resumed on the
 * Destinations page).
 */
export async function chooseActive(m: Membership, choice: PlanChoice): Promise<{ paused: PlanChoice; resumed: PlanChoice }> {
  const apps = [...new Set(choice.apps)];
  const channels = [...new Set(choice.channels)];
  const [plan, items] = await Promise.all([orgPlanOf(m.orgId), listPlanItems(m.orgId)]);
  const unknownApp = apps.find((k) => !items.apps.some((a) => a.app_key === k));
  if (unknownApp) throw badRequest(`apps: ${unknownApp} is not one of your organisation's apps.`);
  const choosable = items.channels.filter((c) => c.status !== 'pending_confirmation');
  const unknownChannel = channels.find((id) => !choosable.some((c) => c.id === id));
  if (unknownChannel) throw badRequest(`channels: ${unknownChannel} is not an active or plan-paused channel of your organisation.`);
  const pending = items.channels.length - choosable.length;
  if (plan.limits.apps !== null && apps.length > plan.limits.apps) throw planLimitError('apps', plan.limits.apps, plan.name, apps.length);
  if (plan.limits.channels !== null && channels.length + pending > plan.limits.channels) {
    throw planLimitError('channels', plan.limits.channels, plan.name, channels.length + pending);
  }
  const changed = await apply(m.orgId, items, new Set(apps), new Set(channels));
  if (changed.paused.apps.length + changed.paused.channels.length + changed.resumed.apps.length + changed.resumed.channels.length) {
    await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'plan.active_chosen', target: plan.name, details: changed });
  }
  return changed;
}

