// Anonymous load is bounded: a source nobody needs stops being polled and comes back — without announcing what was
// written meanwhile — when it is needed again; an anonymous chat connection pauses when its time is up (its reason on
// the public status) and signing in with its e-mail claims and resumes it; and a global source budget refuses, in
// words, a connection that would need more sources than the installation polls.
import { describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { env, setEnvForTests } from '@/server/env';
import { HttpError } from '@/server/http/errors';
import {
  addSource,
  claimAnonymousConnections,
  createDestination,
  drainDeliveries,
  ensureApp,
  pollAppNow,
  setDestinationPaused,
  sweepDemand,
} from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import { claimDueSources } from '@/server/monitor/sources';
import { claimToken } from '@/server/monitor/anonymous';
import { marker, markersOf, worldPerFile } from './helpers/world';

const t = worldPerFile({ title: 'Lantern Budget', firstAppId: 3200001 });

/** The world's settings (setEnvForTests replaces them all). */
const worldEnv = () => {
  const e = env();
  return { ITUNES_BASE_URL: e.ITUNES_BASE_URL, GOOGLE_PLAY_BASE_URL: e.GOOGLE_PLAY_BASE_URL, GOOGLE_PLAY_MIN_INTERVAL_MS: '0', ALLOW_PRIVATE_WEBHOOKS: '1', DELIVERY_PACING: 'off' };
};

const appKey = () => `apple_app_store__${t.app.appId}`;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

async function sourcesOf() {
  return t.w.db.db.selectFrom('monitored_sources').select(['id', 'country', 'status', 'watermark']).where('app_key', '=', appKey()).orderBy('country').execute();
}

/** Makes the app's sources look older than the sweep's grace period for just-added sources. */
async function ageSources() {
  await sql`update monitored_sources set created_at = now() - interval '1 hour' where app_key = ${appKey()}`.execute(t.w.db.db);
}

describe('sources are polled only while something needs them', () => {
  test('paused → idle, not claimed; resumed → polled again, and what was written meanwhile is not announced', async () => {
    t.w.feed.publish(t.app.appId, 'us', { content: `before ${marker(1)}`, updated: minutesAgo(600) });
    const hook = t.w.chat.hook('slack');
    const { id } = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0 });
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true });
    hook.requests.length = 0;
    await ageSources();

    await setDestinationPaused(id, true);
    await sweepDemand();
    expect((await sourcesOf()).map((s) => s.status)).toEqual(['idle']);
    // Due or not, an idle source is never claimed.
    await sql`update monitored_sources set next_poll_at = now() - interval '1 minute' where app_key = ${appKey()}`.execute(t.w.db.db);
    const claimed = await claimDueSources(t.w.db.db, 'test-worker', 1000, 60_000);
    expect(claimed.filter((s) => s.app_key === appKey())).toHaveLength(0);

    // Written while nobody listened: history for whoever listens next.
    t.w.feed.publish(t.app.appId, 'us', { content: `while idle ${marker(2)}`, updated: minutesAgo(30) });
    await setDestinationPaused(id, false);
    expect((await sourcesOf()).map((s) => s.status)).toEqual(['active']);
    await pollAppNow(t.app);
    t.w.feed.publish(t.app.appId, 'us', { content: `after ${marker(3)}`, updated: new Date(Date.now() + 1000) });
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true });
    expect(hook.delivered().flatMap((r) => markersOf(r))).toEqual([marker(3)]);
  });

  test('"All countries" keeps only the storefronts someone wants once the connection is gone; an e-mail digest keeps its own', async () => {
    const hook = t.w.chat.hook('mattermost');
    const { id } = await createDestination({ platform: 'mattermost', url: hook.url, apps: [t.app], country: 'us', filters: { countries: ['us', 'gb', 'fr'] } });
    await addSource({ ...t.app, kind: 'appstore_feed', country: 'gb' });
    await addSource({ ...t.app, kind: 'appstore_feed', country: 'fr' });
    await addSource({ ...t.app, kind: 'appstore_feed', country: 'de' }); // nobody wants this one
    await ageSources();
    await sweepDemand();
    expect((await sourcesOf()).map((s) => [s.country, s.status])).toEqual([['de', 'idle'], ['fr', 'active'], ['gb', 'active'], ['us', 'active']]);

    // An active daily digest for the French storefront keeps that one; the rest go idle with the connection.
    await t.w.db.db.insertInto('email_recipients').values({ email: `digest-${t.app.appId}@example.com` }).execute();
    await t.w.db.db
      .insertInto('email_subscriptions')
      .values({ id: `esub_${t.app.appId}`, email: `digest-${t.app.appId}@example.com`, app_key: appKey(), country: 'fr', digest_status: 'active' })
      .execute();
    await setDestinationPaused(id, true);
    await sweepDemand();
    expect((await sourcesOf()).map((s) => [s.country, s.status])).toEqual([['de', 'idle'], ['fr', 'active'], ['gb', 'idle'], ['us', 'idle']]);
  });
});

describe('anonymous connections', () => {
  test('run for ANONYMOUS_CONNECTION_DAYS, then pause with a reason on the public status; signing in claims and resumes them', async () => {
    const hook = t.w.chat.hook('discord');
    const email = `owner-${t.app.appId}@example.com`;
    for (const id of ['org_signedin', 'org_owner', 'org_other']) {
      await t.w.db.db.insertInto('orgs').values({ id, name: id }).onConflict((oc) => oc.column('id').doNothing()).execute();
    }
    const anon = await createDestination({ platform: 'discord', url: hook.url, apps: [t.app], createdByEmail: email });
    const signedIn = await createDestination({ platform: 'slack', url: t.w.chat.hook('slack').url, apps: [t.app], orgId: 'org_signedin', createdByEmail: email });
    const rows = await t.w.db.db.selectFrom('destinations').select(['id', 'expires_at']).where('id', 'in', [anon.id, signedIn.id]).execute();
    const expiry = new Map(rows.map((r) => [r.id, r.expires_at]));
    expect(Math.abs(new Date(expiry.get(anon.id)!).getTime() - (Date.now() + 30 * 86400_000))).toBeLessThan(60_000);
    expect(expiry.get(signedIn.id)).toBeNull();

    // 30 days later.
    await sql`update destinations set expires_at = now() - interval '1 second' where id = ${anon.id}`.execute(t.w.db.db);
    await ageSources();
    const swept = await sweepDemand();
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    const paused = await getDestinationStatus(anon.id);
    expect(paused).toMatchObject({ status: 'paused' });
    expect(paused!.status_reason).toMatch(/made without an account and ran its 30 days\. To keep receiving reviews, sign in to ARB in the browser you connected it from/);
    expect((await getDestinationStatus(signedIn.id))!.status).toBe('active');

    // Signing in with the address typed into the payload proves nothing: nothing is claimed.
    expect(await claimAnonymousConnections({ orgId: 'org_other', email })).toEqual([]);
    // The owner signs in from the browser that connected it (its claim cookie): the connection is theirs, runs on,
    // and is no longer timed.
    const cookie = await claimToken([anon.id]);
    expect(await claimAnonymousConnections({ orgId: 'org_owner', email: 'someone-else@example.com', claimToken: cookie })).toHaveLength(1);
    const claimed = await t.w.db.db.selectFrom('destinations').select(['org_id', 'status', 'expires_at']).where('id', '=', anon.id).executeTakeFirstOrThrow();
    expect(claimed).toMatchObject({ org_id: 'org_owner', status: 'active', expires_at: null });
    expect(await claimAnonymousConnections({ orgId: 'org_other', email, claimToken: cookie })).toEqual([]); // claimed once, by its owner
  });

  test('connecting the same webhook again resumes an expired one for another period', async () => {
    const hook = t.w.chat.hook('msteams');
    const { id } = await createDestination({ platform: 'msteams', url: hook.url, apps: [t.app] });
    await sql`update destinations set expires_at = now() - interval '1 second' where id = ${id}`.execute(t.w.db.db);
    await sweepDemand();
    expect((await getDestinationStatus(id))!.status).toBe('paused');
    const again = await createDestination({ platform: 'msteams', url: hook.url, apps: [t.app] });
    expect(again).toMatchObject({ id, created: false });
    expect((await getDestinationStatus(again.id))!.status).toBe('active');
    const row = await t.w.db.db.selectFrom('destinations').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(new Date(row.expires_at!).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
  });
});

describe('the source budget', () => {
  test('a connection that needs one source more than MAX_MONITORED_SOURCES is refused with 503 and words; idle sources do not count', async () => {
    const active = await t.w.db.db.selectFrom('monitored_sources').select(sql<number>`count(*)::int`.as('n')).where('status', '=', 'active').executeTakeFirstOrThrow();
    const restore = setEnvForTests({ ...worldEnv(), MAX_MONITORED_SOURCES: String(active.n + 1) });
    try {
      await createDestination({ platform: 'slack', url: t.w.chat.hook('slack').url, apps: [t.app] }); // the last one that fits
      const other = { store: 'apple_app_store' as const, appId: '3299999' }; // no test's own app
      await ensureApp({ ...other, title: 'One Too Many' });
      const refused = await createDestination({ platform: 'slack', url: t.w.chat.hook('slack').url, apps: [other] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(HttpError);
      expect(refused).toMatchObject({ status: 503, code: 'source_budget_full' });
      expect((refused as Error).message).toMatch(/already watching as many app stores and countries as it can poll .* Try again later/);
      expect(await t.w.db.db.selectFrom('destination_apps').select('destination_id').where('app_key', '=', `apple_app_store__${other.appId}`).execute()).toHaveLength(0);

      // A source going idle frees its place.
      const first = await t.w.db.db.selectFrom('destinations as d').innerJoin('destination_apps as da', 'da.destination_id', 'd.id').select('d.id').where('da.app_key', '=', appKey()).executeTakeFirstOrThrow();
      await setDestinationPaused(first.id, true);
      await ageSources();
      await sweepDemand();
      const fits = await createDestination({ platform: 'slack', url: t.w.chat.hook('slack').url, apps: [other] });
      expect(fits.created).toBe(true);
    } finally {
      restore();
    }
  });
});
