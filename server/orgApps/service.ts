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
import { appKey, type AppRef } from '../monitor/apps';
import { readFilters } from '../monitor/filters';
import { ensureSource } from '../monitor/sources';
import { activateNeededSources, idleUnneededSources } from '../monitor/sourceDemand';
import { sourcesFor } from '../monitor/wantedSources';
import { wake } from '../monitor/wake';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { followStoredCredentialsNow } from './officialSource';
import { appsOfAnonymousConnections, deleteOrgApp, getOrgAppCountries, insertMissingOrgApps, listOrgApps, upsertOrgApp, type OrgAppRow } from './data';
import { assertWithinLimit, withinLimit } from '../plans/limits';
import { forgetOrgApps } from '../publicApi/appsCache';

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
  if (!before) await assertWithinLimit(m.orgId, 'apps');
  const registered: RegisteredApp = await registerApp(ref, wanted[0] ?? 'us');
  await watch(ref, wanted);
  // Counted again with the organisation's row held, so concurrent adds cannot both take the last place.
  const row = { orgId: m.orgId, appKey: key, countries: wanted, addedBy: m.userId, addedByEmail: m.email };
  await withinLimit(m.orgId, 'apps', (trx) => upsertOrgApp(row, trx), { takesNoPlace: async (trx) => !!(await getOrgAppCountries(m.orgId, key, trx)) });
  forgetOrgApps(m.orgId);
  if (!before) {
    await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'app.added', target: registered.title, details: { app: key, countries: wanted } });
  } else if (before.join(',') !== wanted.join(',')) {
    await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'app.countries_changed', target: registered.title, details: { app: key, from: before, to: wanted } });
    // Storefronts no longer chosen stop being read unless something else wants them.
    await idleUnneededSources(await getDb(), [key]);
  }
  return { app: (await listOrgApps(m.orgId, key))[0], created: !before };
}

/** Removes the app from the organisation; its sources stop being polled only if nothing else wants them. */
export async function removeOrgApp(m: Membership, key: string): Promise<void> {
  const app = await orgAppOrNotFound(m, key);
  if (!(await deleteOrgApp(m.orgId, key))) throw notFound('This app is not in your organisation.');
  forgetOrgApps(m.orgId);
  // Its store credentials went with its row: the official source keeps only what other organisations stored.
  if (app.credentials_kind) await followStoredCredentialsNow(key, app.store);
  const idled = await idleUnneededSources(await getDb(), [key]);
  await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'app.removed', target: app.title, details: { app: key } });
  log.info('organisation app removed', { app: key, idledSources: idled });
}

/**
 * Someone signs in with `email`: the apps of the connections made with that address without an account become their
 * organisation's apps (with the storefronts those connections watch). Call it before the connections themselves are
 * claimed (claimAnonymousConnections), which makes them the organisation's. Returns the apps added.
 */
export async function claimConnectedApps(input: { orgId: string; email: string }): Promise<string[]> {
  const email = input.email.trim().toLowerCase();
  const rows = await appsOfAnonymousConnections(email);
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
