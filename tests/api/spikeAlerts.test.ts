// Spike alerts end to end, on PGlite and PostgreSQL: reviews ingested from the App Store feed fake (four weeks of
// ordinary reviews, then a day of 1★), the real engine delivering, the loopback chat receivers counting. A destination
// that opted in from the dashboard API gets exactly one alert for the episode — however many times and however
// concurrently the check runs — quoting the reviews that show it with links to them; one that did not gets none.
import { describe, expect, test } from 'vitest';
import { checkSpikes } from '@/server/alerts/check';
import { getDb } from '@/server/db/client';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { connectWorldWithEngine, markersIn, newIosApp, newIp, payloadFor } from './support/connectWorld';
import type { ChatHook, ChatPlatform, ChatRequest } from '../fakes/chatWebhooks';

const t = connectWorldWithEngine();
const DAY = 86_400_000;
const HOUR = 3_600_000;

const as = (u: SignedInUser) => ({ ip: newIp(), token: u.token });

/** Four weeks of ordinary reviews (mostly 5★, a 1★ every fourth day), then `surge` 1★ reviews in the last hours. */
function appWithHistory(surge: number) {
  const app = newIosApp(t.w);
  const now = Date.now();
  let n = 0;
  for (let day = 1; day <= 28; day++) {
    for (let i = 0; i < 4; i++) {
      const rating = i === 0 && day % 4 === 0 ? 1 : i === 1 ? 4 : 5;
      t.w.feed.publish(app.appId, 'us', { title: `Fine ${++n}`, content: `Works well, day ${day} review ${i}`, rating, updated: new Date(now - day * DAY - (i + 1) * HOUR) });
    }
  }
  for (let i = 1; i <= surge; i++) {
    // Bodies of growing length: the alert cites the longest (the ones with most to say) first.
    t.w.feed.publish(app.appId, 'us', { title: `Crash ${i}`, content: `Crashes on launch since 2.0 rvw${i}x ${'again '.repeat(i)}`, rating: 1, version: '2.0.0', updated: new Date(now - i * 20 * 60_000) });
  }
  return app;
}

async function connect(owner: SignedInUser, appId: string, platform: ChatPlatform): Promise<{ id: string; hook: ChatHook }> {
  const hook = t.w.chat.hook(platform);
  const r = await call<{ destination_id: string }>(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform, payload: payloadFor({ app_id: appId, webhook_url: hook.url }) }, as(owner));
  expect(r.status, r.text).toBe(200);
  await hook.waitForDelivered(6, 20_000); // the welcome: intro + the 5 latest reviews
  return { id: r.json.data.destination_id, hook };
}

const patch = (u: SignedInUser, id: string, body: unknown) => call<{ spike_alerts: boolean }>(t.w.api, 'PATCH', `/api/v1/org/destinations/${id}`, body, as(u));

const isAlert = (r: ChatRequest) => JSON.stringify(r.body).includes('Spike in 1–2★ reviews');

describe('spike alerts', () => {
  test('a surge of 1★ reviews: one alert, exactly once, to the destination that opted in and none to the other', async () => {
    const owner = await newOwner();
    const app = appWithHistory(15);
    const wanting = await connect(owner, app.appId, 'slack');
    const teams = await connect(owner, app.appId, 'msteams');
    const quiet = await connect(owner, app.appId, 'discord');

    for (const d of [wanting, teams]) {
      const r = await patch(owner, d.id, { spike_alerts: true });
      expect(r.status, r.text).toBe(200);
      expect(r.json.data.spike_alerts).toBe(true);
    }
    const listed = await call<Array<{ id: string; spike_alerts: boolean }>>(t.w.api, 'GET', '/api/v1/org/destinations', undefined, as(owner));
    expect(Object.fromEntries(listed.json.data.map((d) => [d.id, d.spike_alerts]))).toEqual({ [wanting.id]: true, [teams.id]: true, [quiet.id]: false });

    // Two checks at once (as two worker processes could), then another: one episode, one alert per destination.
    const [a, b] = await Promise.all([checkSpikes(), checkSpikes()]);
    expect(a.opened + b.opened).toBe(1);
    expect(a.queued + b.queued).toBe(2);
    expect((await checkSpikes()).opened).toBe(0);

    const [slackAlert] = await wanting.hook.waitForRequests(1, isAlert, 20_000);
    await teams.hook.waitForRequests(1, isAlert, 20_000);
    const body = slackAlert.body as { text: string; blocks: Array<{ type: string; text?: { text: string } }> };
    expect(body.text).toContain(app.title);
    const shown = body.blocks.map((b) => b.text?.text ?? '').join('\n');
    // What, how much, since when, where, and the cited reviews (the longest first) with links to them in ARB.
    expect(shown).toMatch(/1–2★ reviews: 15 of the last 15 \(100 %\), usually \d+ %/);
    expect(shown).toMatch(/Average rating: 1\.0★ over the last 15 reviews, usually 4\.\d★/);
    expect(shown).toMatch(/Since \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC/);
    expect(shown).toContain('version 2.0.0 (15)');
    expect(markersIn(shown)).toEqual(['rvw15x', 'rvw14x', 'rvw13x']);
    expect(JSON.stringify(body)).toMatch(/\/dashboard\/reviews\?review=\d+\|Open>/);

    // Nothing more arrives: not a second alert, not an alert where none was asked for.
    await new Promise((r) => setTimeout(r, 1500));
    expect(wanting.hook.delivered().filter(isAlert)).toHaveLength(1);
    expect(teams.hook.delivered().filter(isAlert)).toHaveLength(1);
    expect(quiet.hook.requests.filter(isAlert)).toHaveLength(0);
    expect(quiet.hook.requests).toHaveLength(6);

    const db = await getDb();
    const rows = await db.selectFrom('deliveries').select(['destination_id', 'status']).where('kind', '=', 'alert').where('app_key', '=', `apple_app_store__${app.appId}`).execute();
    expect(rows.map((r) => [r.destination_id, r.status]).sort()).toEqual([[teams.id, 'delivered'], [wanting.id, 'delivered']].sort());
  });

  test('by e-mail: the owner’s own address gets the alert once, with the cited reviews and a one-click unsubscribe', async () => {
    const owner = await newOwner();
    const app = appWithHistory(12);
    const r = await call<{ destination_id: string }>(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'email', payload: payloadFor({ app_id: app.appId, user_email: owner.email }) }, as(owner));
    expect(r.status, r.text).toBe(200);
    const mine = () => t.w.smtp.messages.filter((m) => m.envelopeTo.includes(owner.email));
    await expect.poll(() => mine().length, { timeout: 20_000 }).toBe(6); // the welcome and the 5 latest reviews
    expect((await patch(owner, r.json.data.destination_id, { spike_alerts: true })).status).toBe(200);

    await checkSpikes();
    await checkSpikes();
    await expect.poll(() => mine().length, { timeout: 20_000 }).toBe(7);
    const mail = mine()[6];
    expect(mail.subject).toBe(`⚠️ Spike in 1–2★ reviews of ${app.title}, and its average rating dropped`);
    expect(mail.text).toContain('1–2★ reviews: 12 of the last 12 (100 %)');
    expect(markersIn(mail.text)).toEqual(['rvw12x', 'rvw11x', 'rvw10x']);
    expect(mail.text).toMatch(/\/dashboard\/reviews\?review=\d+/);
    expect(mail.headers['list-unsubscribe']).toMatch(/^<https?:\/\/.+>$/);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(mine()).toHaveLength(7);
  });

  test('ordinary days alert nobody, and an episode closes when the surge is over', async () => {
    const owner = await newOwner();
    const app = appWithHistory(0);
    const d = await connect(owner, app.appId, 'slack');
    expect((await patch(owner, d.id, { spike_alerts: true })).status).toBe(200);
    const appKey = `apple_app_store__${app.appId}`;
    expect((await checkSpikes()).opened).toBe(0);

    // An episode left open from an earlier surge ends once the last day looks ordinary again.
    const db = await getDb();
    await db
      .insertInto('spike_episodes')
      .values({ app_key: appKey, scope_kind: 'app', since: new Date(Date.now() - 3 * DAY), details: JSON.stringify({ scope: { kind: 'app', value: '' }, signals: [], concentration: [], cited: [] }) })
      .execute();
    await checkSpikes();
    const episodes = await db.selectFrom('spike_episodes').select(['closed_at']).where('app_key', '=', appKey).execute();
    expect(episodes).toHaveLength(1);
    expect(episodes[0].closed_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect(d.hook.requests.filter(isAlert)).toHaveLength(0);
  });

  test('the opt-in is checked like every setting', async () => {
    const owner = await newOwner();
    const app = appWithHistory(0);
    const d = await connect(owner, app.appId, 'slack');
    const r = await patch(owner, d.id, { spike_alerts: 'yes' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('spike_alerts must be true or false.');
  });
});
