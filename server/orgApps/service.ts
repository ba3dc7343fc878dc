/**
 * The organisation's apps: add one (looked up in its store like the connect flow's app, then watched in the
 * storefronts chosen), remove one (watching stops unless a destination, a digest or another organisation still wants
 * it: sourceDemand.ts decides), list them with their figures, and claim the apps of connections made before signing
 * in. Every change is in the audit log.
 */
import { getDb } from '../db/client';
import { log } from '../log';
import { notFound } from '../http/errors';
import { registerApp, type RegisteredApp } from '../connect/apps';
import { appKey, lockApp, type AppRef } from '../monitor/apps';
import { provedAnonymousConnections, type ClaimProof } from '../monitor/service';
import { readFilters } from '../monitor/filters';
import { ensureSource } from '../monitor/sources';
import { activateNeededSources, idleUnneededSources } from '../monitor/sourceDemand';
import { sourcesFor } from '../monitor/wantedSources';
import { wake } from '../monitor/wake';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { followStoredCredentialsNow } from './officialSource';
import { appsOfAnonymousConnections, deleteOrgApp, getOrgAppCountries, insertMissingOrgApps, listOrgApps, upsertOrgApp, type OrgAppRow } from './data';
import { assertAppsWithinLimit, lockedAppsCheck, lockedLimitCheck } from '../plans/limits';
import { lockOrg } from '../plans/data';
import { forgetOrgApps } from '../publicApi/appsCache';
import { snapshotStoreRatings } from '../storeRatings/snapshot';

/** How long adding an app waits for the store's rating (server/storeRatings/snapshot.ts) before answering. */
const ADD_SNAPSHOT_BUDGET_MS = 3_000;

const actorOf = (m: Membership) => ({ userId: m.userId, email: m.email });

export const appsOf = (m: Membership): Promise<OrgAppRow[]> => listOrgApps(m.orgId);

/** The organisation's app `key`, or a 404 (an app of another organisation is not found here). */
export async function orgAppOrNotFound(m: Membership, key: string): Promise<OrgAppRow> {
  const [app] = await listOrgApps(m.orgId, key);
  if (!app) throw notFound('This app is not in your organisation. Add it on the Apps page first.');
  return app;
}

/** Starts watching the app in these storefronts (none for Google Play: its reviews are read by language). */
async function watch(ref: AppRef, countries: string[]): Promise<void> {
  const db = await getDb();
  const key = appKey(ref);
  await db.transaction().execute(async (trx) => {
    const wanted = ref.store === 'apple_app_store' ? countries.flatMap((c) => sourcesFor(ref.store, c)) : sourcesFor(ref.store, null);
    for (const s of wanted) await ensureSource(trx, { appKey: key, ...s });
    await activateNeededSources(trx, [key]);
  });
  wake('poll');
}

export type AddedApp = { app: OrgAppRow; created: boolean };

/**
 * Adds an app to the organisation (admins; the caller checked the role), or changes its storefronts when it is there
 * already. The app is looked up in its store first: an id the store does not know is a 404 with words to search again.
 */
export async function addOrgApp(m: Membership, ref: AppRef, countries: string[]): Promise<AddedApp> {
  const key = appKey(ref);
  const wanted = ref.store === 'apple_app_store' ? [...new Set(countries.length ? countries : ['us'])].sort() : [];
  const before = await getOrgAppCountries(m.orgId, key);
  // An app a channel of the organisation already posts is watched already: it takes no new place.
  if (!before) await assertAppsWithinLimit(m.orgId, [key]);
  const registered: RegisteredApp = await registerApp(ref, wanted[0] ?? 'us');
  await watch(ref, wanted);
  // Counted again with the organisation's row held, so concurrent adds cannot both take the last place.
  const row = { orgId: m.orgId, appKey: key, countries: wanted, addedBy: m.userId, addedByEmail: m.email };
  await (await getDb()).transaction().execute(async (trx) => {
    if (await getOrgAppCountries(m.orgId, key, trx)) await lockOrg(trx, m.orgId);
    else await lockedAppsCheck(m.orgId, [key])(trx);
    await upsertOrgApp(row, trx);
  });
  forgetOrgApps(m.orgId);
  if (!before) {
    await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'app.added', target: registered.title, details: { app: key, countries: wanted } });
  } else if (before.join(',') !== wanted.join(',')) {
    await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'app.countries_changed', target: registered.title, details: { app: key, from: before, to: wanted } });
    // Storefronts no longer chosen stop being read unless something else wants them.
    await idleUnneededSources(await getDb(), [key]);
  }
  // The store's own rating at once, so the list shows it (the daily job keeps its history; server/storeRatings): what
  // the store does not answer within a few seconds is left to the job's next hourly run.
  await snapshotStoreRatings({ appKeys: [key], gapMs: 0, budgetMs: ADD_SNAPSHOT_BUDGET_MS }).catch((err) =>
    log.warn('store rating snapshot of an added app failed', { app: key, err: err instanceof Error ? err.message : String(err) }),
  );
  return { app: (await listOrgApps(m.orgId, key))[0], created: !before };
}

/** Removes the app from the organisation; its sources stop being polled only if nothing else wants them. */
export async function removeOrgApp(m: Membership, key: string): Promise<void> {
  const app = await orgAppOrNotFound(m, key);
  // Under the app's lock, as every change to who gets the app's reviews (an org app paused by the plan keeps its
  // destinations from them: sourceDemand.ts NOT_PLAN_PAUSED), so a poll fanning out meanwhile sees before or after.
  const db = await getDb();
  const removed = await db.transaction().execute(async (trx) => (await lockApp(trx, key)) && deleteOrgApp(m.orgId, key, trx));
  if (!removed) throw notFound('This app is not in your organisation.');
  forgetOrgApps(m.orgId);
  // Its store credentials went with its row: the official source keeps only what other organisations stored.
  if (app.credentials_kind) await followStoredCredentialsNow(key, app.store);
  const idled = await idleUnneededSources(await getDb(), [key]);
  await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'app.removed', target: app.title, details: { app: key } });
  log.info('organisation app removed', { app: key, idledSources: idled });
}

/**
 * Someone signs in: the apps of the connections they made without an account — those `proof` shows to be theirs (the
 * browser's claim cookie, or their own address's confirmed e-mail destinations: claimAnonymousConnections) — become
 * their organisation's apps (with the storefronts those connections watch). Call it before the connections themselves
 * are claimed, which makes them the organisation's. Returns the apps added.
 */
export async function claimConnectedApps(input: { orgId: string } & ClaimProof): Promise<string[]> {
  const email = input.email.trim().toLowerCase();
  const rows = await appsOfAnonymousConnections(await provedAnonymousConnections(input));
  if (rows.length === 0) return [];
  const byApp = new Map<string, Set<string>>();
  for (const r of rows) {
    const countries = byApp.get(r.app_key) ?? new Set<string>();
    if (r.store === 'apple_app_store') for (const c of readFilters(r.filters).countries ?? ['us']) countries.add(c);
    byApp.set(r.app_key, countries);
  }
  const added = await insertMissingOrgApps(
    input.orgId,
    [...byApp].map(([key, countries]) => ({ appKey: key, countries: [...countries].sort() })),
    email,
  );
  forgetOrgApps(input.orgId);
  for (const key of added) {
    await recordAudit({ orgId: input.orgId, actor: null, action: 'app.claimed', target: key, details: { app: key, countries: [...byApp.get(key)!].sort(), email } });
  }
  if (added.length) log.info('apps of anonymous connections claimed', { apps: added.length });
  return added;
}

/**
 * A connection an admin makes from the dashboard watches its app for the organisation, so the app becomes one of the
 * organisation's apps (the Apps page, the inbox) under the same plan check as adding it there. `beforeInsert` runs in
 * createDestination's transaction after the app's lock (the order every creation takes): the organisation's row held,
 * one more channel and — unless the organisation watches the app already — one more app counted, then the app added.
 * `after` records it and lets the public API see it, once the destination exists.
 */
export function dashboardConnectionApp(m: Membership, ref: AppRef, countries: readonly string[]) {
  const key = appKey(ref);
  const row = { appKey: key, countries: ref.store === 'apple_app_store' ? [...new Set(countries)].sort() : [] };
  let added = false;
  return {
    beforeInsert: async (trx: Parameters<typeof lockOrg>[0]) => {
      await lockedLimitCheck(m.orgId, 'channels')(trx);
      await lockedAppsCheck(m.orgId, [key])(trx);
      added = (await insertMissingOrgApps(m.orgId, [row], m.email, trx)).length > 0;
    },
    after: async (title: string) => {
      if (!added) return;
      forgetOrgApps(m.orgId);
      await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'app.added', target: title, details: { app: key, countries: row.countries, by: 'connection' } });
    },
  };
}
