// A hostile review, end to end on every platform through the real sender: stored, fanned out, formatted, posted to
// each receiver (which enforce their platform's size limits) and mailed through a real SMTP server. Nothing in it can
// ping anyone, inject a link or markup, or make a platform refuse the message. The formatters' own tests cover each
// escape in detail; this proves the engine hands the review to them intact and the result is accepted end to end.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDestination, drainDeliveries, ensureApp, pollAppNow, UNSUBSCRIBED } from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import { CHAT_PLATFORMS, type ChatHook, type ChatPlatform } from '../fakes/chatWebhooks';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp';
import { startTestApi, type TestApi } from '../helpers/api';
import { marker, startWorld, type World } from './helpers/world';

const APP = { store: 'apple_app_store' as const, appId: '3000001' };
let w: World;
let smtp: FakeSmtp;
let api: TestApi;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  api = await startTestApi();
  w = await startWorld({ SMTP_URL: smtp.url, APP_URL: api.url });
  await ensureApp({ ...APP, title: 'Tidy <Tasks> & @here' });
}, 60_000);

afterAll(async () => {
  await w.close();
  await api.close();
  await smtp.close();
});

const HOSTILE_TITLE = '<!channel> @everyone <https://evil.example|click me> **bold** [x](https://evil.example)';
const HOSTILE_BODY =
  '@here <@U024BE7LH> <!here> <!subteam^S123> [phish](https://evil.example) <script>alert(1)</script> @all @channel ' +
  '<at>Someone</at> # Heading\n> quote\n```code```\n' +
  'مرحبا بالعالم \u202Egnp.exe 🎉👍🏽 ' +
  'A'.repeat(20_000) +
  ` ${marker(666)}`;

/**
 * The strings a platform renders with its markup: every string of the payload, except the ones the platform shows as
 * plain text (never parsed for mentions or links): Slack's header blocks; Mattermost's fallback, author_name, footer,
 * and a title that carries a title_link.
 */
function renderedTexts(platform: ChatPlatform, body: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (platform === 'slack' && (o.type === 'header' || o.type === 'plain_text')) return;
      const plain = platform === 'mattermost' ? ['fallback', 'author_name', 'footer', ...(o.title_link ? ['title'] : [])] : [];
      Object.entries(o).forEach(([k, x]) => k !== 'type' && !plain.includes(k) && walk(x));
    }
  };
  walk(body);
  return out;
}

test('a hostile review reaches every platform harmlessly, and the e-mail can be unsubscribed without signing in', async () => {
  const hooks = new Map<ChatPlatform, ChatHook>();
  for (const p of CHAT_PLATFORMS) {
    const hook = w.chat.hook(p);
    hooks.set(p, hook);
    await createDestination({ platform: p, url: hook.url, apps: [APP], welcomeCount: 0 });
  }
  // Confirmed already (the owner's own address): consent by e-mail is the connect flow's part (tests/api/emailConsent).
  const email = await createDestination({ platform: 'email', email: 'team@example.com', apps: [APP], welcomeCount: 0, addressConfirmed: true });
  await pollAppNow(APP);
  await drainDeliveries({ waitForRetries: true });
  await smtp.waitForMessages(1); // the welcome

  w.feed.publish(APP.appId, 'us', { title: HOSTILE_TITLE, content: HOSTILE_BODY, author: '@everyone <b>Bob</b>', rating: 1, updated: new Date(Date.now() + 1000) });
  await pollAppNow(APP);
  await drainDeliveries({ waitForRetries: true });

  for (const [p, hook] of hooks) {
    // Every receiver accepted both messages (welcome + review): nothing went over the platform's limits.
    expect(hook.requests.map((r) => r.status! < 300), p).toEqual([true, true]);
    const review = hook.delivered()[1];
    expect(JSON.stringify(review.body).length, p).toBeLessThan(30_000); // 20,000 characters were cut to fit
    const texts = renderedTexts(p, review.body);
    const all = texts.join('\n');
    expect(all, p).toContain('…');
    expect(all, p).toContain('🎉'); // emoji and RTL text survive
    expect(all, p).toContain('مرحبا');
    for (const t of texts) {
      expect(t, p).not.toContain('<script>');
      expect(t, p).not.toContain('<!channel>');
      expect(t, p).not.toContain('<!here>');
      expect(t, p).not.toContain('<@U024BE7LH>');
      expect(t, p).not.toContain('<https://evil.example|');
      expect(t, p).not.toContain('<at>');
      // Slack's mrkdwn has no [text](url) links, nor do Google Chat's card HTML and Telegram's HTML; every other
      // platform's Markdown does, so it must be escaped there.
      if (p !== 'slack' && p !== 'googlechat' && p !== 'telegram') expect(t, p).not.toContain('](https://evil.example)');
      // Teams only pings through <at> plus mention entities; the others must break @channel and friends.
      if (p !== 'msteams') expect(t, p).not.toMatch(/@(channel|here|all|everyone)\b/);
    }
    if (p === 'discord') expect((review.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({ parse: [] });
  }

  const [, mail] = await smtp.waitForMessages(2);
  expect(mail.to).toContain('team@example.com');
  expect(mail.subject).not.toMatch(/[\r\n]/);
  expect(mail.html).not.toContain('<script>');
  expect(mail.html).toContain('&lt;script&gt;');
  expect(mail.text).toContain('مرحبا'); // the plain-text part carries the review too
  const oneClick = /<([^>]+)>/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1];
  expect(oneClick).toMatch(/\/api\/v1\/public\/email\/unsubscribe\?token=/);
  expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

  // One click, no sign-in (RFC 8058): the next review is not mailed, and the destination says why.
  const res = await fetch(oneClick!, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
  expect(res.status).toBe(200);
  w.feed.publish(APP.appId, 'us', { content: `after unsubscribing ${marker(667)}`, updated: new Date(Date.now() + 2000) });
  await pollAppNow(APP);
  await drainDeliveries({ waitForRetries: true });
  expect(smtp.messages).toHaveLength(2);
  const status = await getDestinationStatus(email.id);
  expect(status).toMatchObject({ status: 'disabled', status_reason: UNSUBSCRIBED, queued: 0 });
  for (const hook of hooks.values()) expect(hook.delivered()).toHaveLength(3); // chat destinations carry on

  // Connecting the same address again (any caller, not only the connect form) does not undo the unsubscribe.
  await expect(createDestination({ platform: 'email', email: 'team@example.com', apps: [APP], welcomeCount: 0 })).rejects.toMatchObject({
    status: 409,
    code: 'address_unsubscribed',
  });
  const otherApp = await ensureApp({ store: 'apple_app_store', appId: String(Number(APP.appId) + 1), title: 'Another app' });
  await expect(
    createDestination({ platform: 'email', email: 'team@example.com', apps: [{ store: 'apple_app_store', appId: otherApp.app_id }], welcomeCount: 0 }),
  ).rejects.toMatchObject({ status: 409 });
  expect(await getDestinationStatus(email.id)).toMatchObject({ status: 'disabled', status_reason: UNSUBSCRIBED });
  // "Unsubscribed" is a state, not a sentence: the reason's words may change (or be translated) and the refusal stays.
  const row = await w.db.db.selectFrom('destinations').select('disabled_cause').where('id', '=', email.id).executeTakeFirstOrThrow();
  expect(row.disabled_cause).toBe('unsubscribed');
  await w.db.db.updateTable('destinations').set({ status_reason: 'Der Empfänger hat sich abgemeldet.' }).where('id', '=', email.id).execute();
  await expect(createDestination({ platform: 'email', email: 'team@example.com', apps: [APP], welcomeCount: 0 })).rejects.toMatchObject({
    status: 409,
    code: 'address_unsubscribed',
  });
});
