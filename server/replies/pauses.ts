/**
 * Reply pauses: when a store refuses a reply of an app for its credentials (App Store Connect 401/403, Google's
 * service account refused or without the permission) or its quota (429, Apple's hourly allowance spent, Play's daily
 * quota), rules draft no more automatic replies for that app's reviews: each would meet the same refusal. The pause
 * says why in the store's words (the reply's own failure text) and since when; a quota's pause ends by itself when the
 * store's window resets (`until`), one for the credentials when an admin lifts it (DELETE v1/org/reply-pauses/{appKey})
 * once the credentials are fixed. Replies people send are never held by a pause: they meet the store's answer
 * themselves. Any reply's refusal pauses (a person's reply that the store refuses for the key tells the same).
 */
import { notFound } from '../http/errors';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { orgAppOrNotFound } from '../orgApps/service';
import { TOKEN_SERVICE } from '../sources/playDeveloper';
import { SourceError } from '../sources/types';
import { log } from '../log';
import { activePause, activePauses, deletePause, upsertPause, type PauseRow } from './ruleData';
import type { StoreRefusal } from './stores';

export type PauseCause = { kind: 'credentials' | 'quota'; reason: string; until: Date | null };

/** Whether a store's refusal of a reply means the app's credentials (or its quota) stop every reply, not just this one. */
export function pauseCauseOf(err: unknown, refusal: StoreRefusal): PauseCause | null {
  if (refusal.kind === 'retry') {
    if (!refusal.rateLimited) return null;
    return { kind: 'quota', reason: refusal.reason, until: new Date(Date.now() + (refusal.afterSeconds ?? 3600) * 1000) };
  }
  if (!(err instanceof SourceError)) return null;
  const credentials = err.status === 401 || err.status === 403 || (err.message.startsWith(TOKEN_SERVICE) && err.permanent);
  return credentials ? { kind: 'credentials', reason: refusal.reason, until: null } : null;
}

/** Pauses the organisation's automatic replies to the app's reviews (never fails the reply's own bookkeeping). */
export async function pauseAutomaticReplies(orgId: string, appKey: string, cause: PauseCause): Promise<void> {
  try {
    await upsertPause({ orgId, appKey, ...cause });
    log.info('automatic replies paused', { org: orgId, app: appKey, kind: cause.kind });
  } catch (err) {
    log.error('automatic replies could not be paused', { org: orgId, app: appKey, err: (err as Error).message });
  }
}

export const pauseOf = activePause;

export type PauseJson = { app_key: string; app_title: string | null; kind: 'credentials' | 'quota'; reason: string; since: string; until: string | null };

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
export const pauseJson = (p: PauseRow & { app_title?: string | null }): PauseJson => ({
  app_key: p.app_key,
  app_title: p.app_title ?? null,
  kind: p.kind,
  reason: p.reason,
  since: iso(p.since)!,
  until: iso(p.until),
});

/** The organisation's paused apps (every member reads them: they explain why drafts stopped coming). */
export async function pausesOf(m: Membership): Promise<PauseJson[]> {
  return (await activePauses(m.orgId)).map(pauseJson);
}

/** Lifts an app's pause (admins: it follows fixing the app's store credentials, which admins manage). */
export async function liftPause(m: Membership, appKey: string): Promise<void> {
  const app = await orgAppOrNotFound(m, appKey);
  if (!(await deletePause(m.orgId, appKey))) throw notFound(`Automatic replies to ${app.title}'s reviews are not paused.`);
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'replies.resumed', target: app.title, details: { app: appKey } });
}
