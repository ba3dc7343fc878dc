// Topic alerts end to end, on PGlite and PostgreSQL: reviews ingested from the App Store feed fake, the real spike
// check, the real engine delivering to loopback chat receivers in their wire formats. The crash scenario of issue 31
// (ten new 1★ "crashes on open" reviews within an hour on an app with a quiet baseline) alerts in one check and says
// which term, how many reviews and how far above its usual rate; a term rising without a spike in 1–2★ reviews gets
// its own alert; and neither repeats for the same episode.
import { describe, expect, test } from 'vitest';
import { checkSpikes } from '@/server/alerts/check';
import { getDb } from '@/server/db/client';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { connectWorldWithEngine, newIosApp, newIp, payloadFor } from './support/connectWorld';
import type { ChatHook, ChatPlatform, ChatRequest } from '../fakes/chatWebhooks';

const t = connectWorldWithEngine();
const DAY = 86_400_000;
const HOUR = 3_600_000;
const as = (u: SignedInUser) => ({ ip: newIp(), token: u.token });

type Spec = { title: string; content: string; rating: number; updated: Date };

function appWith(reviews: Spec[]) {
  const app = newIosApp(t.w);
  for (const r of reviews) t.w.feed.publish(app.appId, 'us', r);
  return { ...app, appKey: `apple_app_store__${app.appId}` };
}

/** A quiet app: about one review a day for four weeks, mostly happy; it "crashed on open" twice. */
function quietBaseline(now: number): Spec[] {
  const out: Spec[] = [];
  const happy = ['Lovely notes and calm design', 'Sync works across my devices', 'Simple widgets, nice themes', 'Great for daily journaling'];
  for (let day = 1; day <= 28; day++) out.push({ title: `Day ${day}`, content: happy[day % happy.length], rating: day % 7 === 0 ? 4 : 5, updated: new Date(now - day * DAY - 3 * HOUR) });
  out.push({ title: 'Hmm', content: 'It crashes on open sometimes', rating: 3, updated: new Date(now - 9 * DAY) });
  out.push({ title: 'Meh', content: 'Crashed on open after the widget update', rating: 2, updated: new Date(now - 17 * DAY) });
  return out;
}

async function connect(owner: SignedInUser, appId: string, platform: ChatPlatform): Promise<{ id: string; hook: ChatHook }> {
  const hook = t.w.chat.hook(platform);
  const r = await call<{ destination_id: string }>(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform, payload: payloadFor({ app_id: appId, webhook_url: hook.url }) }, as(owner));
  expect(r.status, r.text).toBe(200);
  await hook.waitForDelivered(6, 20_000); // the welcome: intro + the 5 latest reviews
  const p = await call(t.w.api, 'PATCH', `/api/v1/org/destinations/${r.json.data.destination_id}`, { spike_alerts: true }, as(owner));
  expect(p.status, p.text).toBe(200);
  return { id: r.json.data.destination_id, hook };
}

const text = (r: ChatRequest) => JSON.stringify(r.body);
const saysTopic = (term: string) => (r: ChatRequest) => text(r).includes(`“${term}” in `);

describe('topic alerts', () => {
  test('the crash scenario: ten 1★ "crashes on open" reviews within an hour on a quiet app alert in one check, once', async () => {
    const owner = await newOwner();
    const now = Date.now();
    const crashes: Spec[] = Array.from({ length: 10 }, (_, i) => ({
      title: i % 2 ? 'Crashes on open' : 'Broken',
      content: i % 2 ? 'Cannot use it at all.' : `Crashes on open every time, tried reinstalling ${i}`,
      rating: 1,
      updated: new Date(now - (i + 1) * 5 * 60_000),
    }));
    const app = appWith([...quietBaseline(now), ...crashes]);
    const slack = await connect(owner, app.appId, 'slack');
    const discord = await connect(owner, app.appId, 'discord');

    const first = await checkSpikes();
    expect(first.opened).toBe(1);
    expect(first.topics).toBeGreaterThanOrEqual(1);
    const [alert] = await slack.hook.waitForRequests(1, saysTopic('crashes on open'), 20_000);
    await discord.hook.waitForRequests(1, saysTopic('crashes on open'), 20_000);
    // "crashed on open" and "crashes on open" twice in 28 days is 1/14 a day (the forms are one term); ten today is
    // 140×. Its words ("crashes", "open") are the same incident: the phrase holding them names it.
    expect(text(alert)).toContain('“crashes on open” in 10 reviews in the last 24 h, 140× its usual rate');
    // Told in the app's spike alert, with its Slack formatting (blocks) and the spike's own lines.
    const body = alert.body as { text: string; blocks: Array<{ text?: { text: string } }> };
    expect(body.text).toContain(app.title);
    expect(body.blocks.map((b) => b.text?.text ?? '').join('\n')).toMatch(/1–2★ reviews: 10 of the last 10/);

    // The same incident does not alert again: not the next check, not the topic's words on their own.
    const second = await checkSpikes();
    expect(second).toMatchObject({ opened: 0, queued: 0, topics: 0 });
    await new Promise((r) => setTimeout(r, 1500));
    const alerts = (h: ChatHook) => h.requests.filter((r) => text(r).includes('Spike in 1–2★') || text(r).includes('rising in 1–2★'));
    expect(alerts(slack.hook)).toHaveLength(1);
    expect(alerts(discord.hook)).toHaveLength(1);

    const db = await getDb();
    const episodes = await db.selectFrom('spike_episodes').select(['scope_kind', 'scope_value', 'closed_at']).where('app_key', '=', app.appKey).orderBy('scope_kind').execute();
    expect(episodes.map((e) => [e.scope_kind, e.scope_value, e.closed_at])).toEqual([
      ['app', '', null],
      ['topic', 'crash on open', null],
    ]);
  });

  test('a term filling the 1–2★ reviews of a busy app without a spike: its own alert, formatted per platform, once', async () => {
    const owner = await newOwner();
    const now = Date.now();
    const reviews: Spec[] = [];
    // Four weeks of six reviews a day, a third of them 1★ (about prices): the 1–2★ share is high already.
    for (let day = 1; day <= 28; day++)
      for (let i = 0; i < 6; i++)
        reviews.push({
          title: `R${day}-${i}`,
          content: i < 2 ? 'Subscription price is too high' : 'Good planner, clean calendar view',
          rating: i < 2 ? 1 : 5,
          updated: new Date(now - day * DAY - (i + 1) * HOUR),
        });
    // Today: as many reviews and low ones as usual, but the 1★ ones all say the login broke.
    for (let i = 0; i < 12; i++)
      reviews.push({
        title: `T${i}`,
        content: i < 5 ? `Login broken, stuck on the spinner ${i}` : i < 7 ? 'Subscription price is too high' : 'Good planner, clean calendar view',
        rating: i < 7 ? 1 : 5,
        updated: new Date(now - (i + 1) * HOUR),
      });
    const app = appWith(reviews);
    const slack = await connect(owner, app.appId, 'slack');
    const teams = await connect(owner, app.appId, 'msteams');

    const first = await checkSpikes();
    expect(first).toMatchObject({ opened: 1, queued: 2, topics: 1 });
    const [s] = await slack.hook.waitForRequests(1, saysTopic('login broken'), 20_000);
    const [m] = await teams.hook.waitForRequests(1, saysTopic('login broken'), 20_000);
    expect((s.body as { text: string }).text).toContain(`“login broken” rising in 1–2★ reviews of ${app.title}`);
    expect(text(s)).toContain('“login broken” in 5 reviews in the last 24 h, not in the 28 days before');
    expect(text(m)).toContain('“login broken” in 5 reviews in the last 24 h, not in the 28 days before');
    expect(text(m)).toContain('AdaptiveCard');
    // The inbox link searches the term's reviews.
    expect(text(s)).toMatch(/dashboard\/reviews\?[^"|>]*q=%22login\+broken%22/);
    expect(text(s)).not.toContain('Spike in 1–2★');

    expect((await checkSpikes()).opened).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(slack.hook.requests.filter(saysTopic('login broken'))).toHaveLength(1);
    expect(teams.hook.requests.filter(saysTopic('login broken'))).toHaveLength(1);
  });

  test('ordinary days with a few complaints open no topic', async () => {
    const owner = await newOwner();
    const now = Date.now();
    const app = appWith([
      ...quietBaseline(now),
      { title: 'Crash', content: 'Crashed once today', rating: 2, updated: new Date(now - HOUR) },
      { title: 'Nice', content: 'Lovely notes and calm design', rating: 5, updated: new Date(now - 2 * HOUR) },
    ]);
    await connect(owner, app.appId, 'slack');
    expect(await checkSpikes()).toMatchObject({ opened: 0, topics: 0 });
  });
});
