/**
 * The plan's limits, checked where something is created: one more app, channel, member or API key than the plan allows
 * is a 402 `plan_limit` whose message names the limit and the plan that lifts it (the dashboard shows it with an
 * Upgrade button). A server without billing whose SELF_HOSTED_PLAN is unlimited (the default) never refuses.
 *
 * Where a creation can run in one transaction with its check (`withinLimit`, or `lockedLimitCheck` inside the
 * creator's transaction: the organisation's row locked, counted, then inserted), two requests racing for the last
 * place are served one after the other: the second counts the first's (apps and channels; invitations and API keys
 * are checked before their insert). Members count the open invitations too (each may become one), and are checked again when one is accepted.
 */
import { getDb, type DB } from '../db/client';
import { HttpError } from '../http/errors';
import { countOpenInvitations, countUsage, getOrgPlan, lockOrg, orgHasDestinationTarget, usageMonth, watchedAppKeys } from './data';
import { billingEnabled, planFor } from './plans';
import { LIMIT_WORDS, limitText, planThatLifts, type LimitKey } from '@/shared/plans';

export type CountedLimit = Extract<LimitKey, 'apps' | 'channels' | 'members' | 'api_keys'>;

/** "3 apps", "unlimited API keys". */
const amount = (key: LimitKey, v: number | null) => (v === null ? `unlimited ${LIMIT_WORDS[key].many}` : limitText(key, v));

/** The refusal for one more `key` over `limit` on `planName`, naming the plan that lifts it. */
export function planLimitError(key: LimitKey, limit: number, planName: string, used: number): HttpError {
  const words = LIMIT_WORDS[key];
  const month = words.perMonth ? ' a month' : '';
  const allowance = limit === 0 ? `does not include ${words.many}` : `allows ${amount(key, limit)}${month}`;
  let next: string;
  if (!billingEnabled()) next = 'This server’s operator sets the plan.';
  else {
    const lift = planThatLifts(key, used);
    next = lift ? `Upgrade to ${lift.name} for ${amount(key, lift.limits[key])}${lift.limits[key] === null ? '' : month}.` : 'Contact us for a larger plan.';
  }
  return new HttpError(402, 'plan_limit', `Your ${planName} plan ${allowance}. ${next}`);
}

/**
 * Refuses (402) when the organisation already has as many `key` as its plan allows. `invitations`: members about to
 * be invited count the open invitations as members, but the one `except` replaces (accepting one checks the members
 * alone).
 */
export async function assertWithinLimit(orgId: string, key: CountedLimit, opts: { now?: Date; db?: DB; invitations?: { except?: string } } = {}): Promise<void> {
  const now = opts.now ?? new Date();
  const row = await getOrgPlan(orgId, opts.db);
  if (!row) return; // the caller's own lookup reports a missing organisation
  const plan = planFor(row, now);
  const limit = plan.limits[key];
  if (limit === null) return;
  let used = (await countUsage(orgId, usageMonth(now), opts.db))[key];
  if (key === 'members' && opts.invitations) used += await countOpenInvitations(orgId, now, opts.db, opts.invitations.except);
  if (used >= limit) throw planLimitError(key, limit, plan.name, used);
}

/**
 * Checks the limit and makes the thing in one transaction that holds the organisation's row: concurrent creations
 * for one organisation are counted one after the other, so the last place is given once. `create` must use `trx`. `takesNoPlace`: the
 * creation reuses something the organisation has (no check).
 */
export async function withinLimit<T>(
  orgId: string,
  key: CountedLimit,
  create: (trx: DB) => Promise<T>,
  opts: { takesNoPlace?: (trx: DB) => Promise<boolean> } = {},
): Promise<T> {
  return (await getDb()).transaction().execute(async (trx) => {
    // Something the organisation has already (re-adding it) is not counted again.
    if (await opts.takesNoPlace?.(trx)) await lockOrg(trx, orgId);
    else await lockedLimitCheck(orgId, key)(trx);
    return create(trx);
  });
}

/**
 * The check a creation runs inside its own transaction (the engine's createDestination): the organisation's row is
 * locked, then counted, so concurrent creations are counted one after the other.
 */
export function lockedLimitCheck(orgId: string, key: CountedLimit): (trx: DB) => Promise<void> {
  return async (trx) => {
    await lockOrg(trx, orgId);
    await assertWithinLimit(orgId, key, { db: trx });
  };
}

/**
 * Refuses (402) when watching `appKeys` too would take the organisation past its plan's apps. Its apps are every app it
 * watches (its apps and those of its destinations, `watchedAppKeys`): only those not among them take a place, so
 * connecting another channel to a watched app, or adding to the Apps page an app a channel already posts, is never refused.
 */
export async function assertAppsWithinLimit(orgId: string, appKeys: string[], opts: { now?: Date; db?: DB; destination?: string } = {}): Promise<void> {
  const row = await getOrgPlan(orgId, opts.db);
  if (!row) return;
  const plan = planFor(row, opts.now ?? new Date());
  const limit = plan.limits.apps;
  if (limit === null) return;
  const watched = new Set(await watchedAppKeys(orgId, opts.db));
  if (!appKeys.some((k) => !watched.has(k))) return;
  // A destination changing its apps gives up those only it watched: what counts is everything else plus its new apps.
  const others = opts.destination ? await watchedAppKeys(orgId, opts.db, opts.destination) : watched;
  const after = new Set([...others, ...appKeys]).size;
  // `used` names the plan that has room for all of them.
  if (after > limit) throw planLimitError('apps', limit, plan.name, after - 1);
}

/** `assertAppsWithinLimit` inside the creator's transaction, with the organisation's row held (no race for the last place). */
export function lockedAppsCheck(orgId: string, appKeys: string[], opts: { destination?: string } = {}): (trx: DB) => Promise<void> {
  return async (trx) => {
    await lockOrg(trx, orgId);
    await assertAppsWithinLimit(orgId, appKeys, { db: trx, ...opts });
  };
}

/**
 * A channel for the organisation: connecting a target it already has (the same webhook or address on the same
 * platform) reuses that destination and takes no new place, so only a new target is checked.
 */
export async function assertChannelWithinLimit(orgId: string, target: { platform: string; targetHash: string }): Promise<void> {
  if (await orgHasDestinationTarget(orgId, target.platform, target.targetHash)) return;
  await assertWithinLimit(orgId, 'channels');
}
