/**
 * Google Chat and Telegram, the two registry platforms that are not Markdown webhooks: their URL shapes (a Google
 * Chat webhook's key and token, a Telegram bot's token and chat), their formatters under hostile text (card HTML and
 * plain headers for Google Chat; Telegram's HTML, its 4,096 characters and cuts that never fall inside a tag or an
 * entity), the thread per app, and what their answers mean (429 waits, the refusals that disable a destination, in
 * words). The shared rules every platform's messages obey are in tests/unit/format/ (platforms, alerts, summaries).
 */
import { describe, expect, test } from 'vitest';
import { classifyWebhookResponse, prepareTarget } from '@/server/destinations/deliver';
import { formatFor, formatReviewFor, formatWelcomeFor } from '@/server/destinations/format';
import { answers as googleChatAnswers, escapeGoogleChat, threadKeyOf, type GoogleChatPayload } from '@/server/destinations/platforms/googlechat';
import { answers as telegramAnswers, escapeTelegram, formatReview as telegramReview, type TelegramPayload } from '@/server/destinations/platforms/telegram';
import type { SendResult } from '@/server/destinations/send';
import type { FormattedMessage, ReviewMessageInput } from '@/server/destinations/types';
import { validateWebhookUrl } from '@/shared/webhookUrls';
import { parseTelegramHtml } from '../fakes/telegramHtml';
import { googleChatProblems, jsonProblems, telegramProblems } from './format/platformRules';
import { PERMALINK, reviewInput, welcomeInput } from './format/sampleReviews';

const GOOGLE_CHAT = 'https://chat.googleapis.com/v1/spaces/AAAAbCdEfGh/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=Xq3mT0K1p8Qn_ZrF2yVb9cWd4eLh6gJs7aUo5iNkYtE';
const TELEGRAM = 'https://api.telegram.org/bot123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra/sendMessage?chat_id=-1001234567890';

const accepted = (platform: 'googlechat' | 'telegram', url: string) => {
  const r = validateWebhookUrl(platform, url);
  if (!r.ok) throw new Error(`expected ${url} to pass: ${r.message}`);
  return r.url;
};
const refused = (platform: 'googlechat' | 'telegram', url: string) => {
  const r = validateWebhookUrl(platform, url);
  if (r.ok) throw new Error(`expected ${url} to be refused for ${platform}`);
  return r.message;
};
const json = <T,>(m: FormattedMessage): T => {
  if (m.kind !== 'json') throw new Error('expected JSON');
  return m.body as T;
};

const ZWSP = '\u200B';
const FAMILY = '👨‍👩‍👧‍👦';
const ATTACKS = [
  '<users/all>',
  '<users/123456789>',
  '@all @here @everyone',
  '<b>bold</b> <a href="https://evil.example">click</a> <tg-spoiler>x</tg-spoiler> <blockquote>',
  '&amp; &lt; &#60; &copy; & < > "quoted"',
  '<https://evil.example|click me>',
  '*bold* _it_ ~s~ `code`',
  `\u202Etxt.exe ${FAMILY}`,
].join('\n');
const HUGE = `${ATTACKS}\n${`${FAMILY}&<>@here<users/all> `.repeat(1_200)}`.slice(0, 20_000);
const hostile: ReviewMessageInput = reviewInput(
  {
    kind: 'updated',
    previous: { rating: 5, body: ATTACKS, title: ATTACKS },
    app: { appId: '1488000123', store: 'apple_app_store', title: 'Evil <users/all> & @here App', storeUrl: 'https://apps.apple.com/us/app/id1488000123' },
    translation: { text: HUGE, language: 'en' },
    sentiment: { label: 'negative', score: -1 },
  },
  { title: `${ATTACKS} ${'T'.repeat(400)}`, body: HUGE, authorName: `${ATTACKS} ${'A'.repeat(400)}`, appVersion: '<users/all> 1.0' },
);

describe('the URL check', () => {
  test('a Google Chat webhook: the space, its key and its token', () => {
    expect(accepted('googlechat', GOOGLE_CHAT)).toBe(GOOGLE_CHAT);
    expect(refused('googlechat', GOOGLE_CHAT.replace(/&token=[^&]+/, ''))).toMatch(/missing its key=… or token=… part/);
    expect(refused('googlechat', GOOGLE_CHAT.replace(/key=[^&]+&/, ''))).toMatch(/missing its key=… or token=… part/);
    expect(refused('googlechat', GOOGLE_CHAT.replace('chat.googleapis.com', 'chat.googleapis.com.evil.example'))).toMatch(/^That isn't a Google Chat incoming-webhook URL/);
    expect(refused('googlechat', GOOGLE_CHAT.replace('/messages', '/members'))).toMatch(/^That isn't a Google Chat incoming-webhook URL/);
    expect(refused('googlechat', GOOGLE_CHAT.replace('https:', 'http:'))).toMatch(/must start with https/);
    expect(refused('googlechat', 'https://hooks.slack.com/services/T0/B0/XXXX')).toMatch(/chat\.googleapis\.com\/v1\/spaces/);
  });

  test('a Telegram bot: the token, sendMessage and the chat (a number or a channel’s @name), a topic allowed', () => {
    expect(accepted('telegram', TELEGRAM)).toBe(TELEGRAM);
    accepted('telegram', TELEGRAM.replace('-1001234567890', '%40arb_reviews'));
    accepted('telegram', `${TELEGRAM}&message_thread_id=42`);
    accepted('telegram', TELEGRAM.replace('-1001234567890', '987654321'));
    expect(refused('telegram', TELEGRAM.replace(/\?.*$/, ''))).toMatch(/\?chat_id= followed by the chat's id/);
    expect(refused('telegram', TELEGRAM.replace('sendMessage', 'getUpdates'))).toMatch(/calls getUpdates; ARB needs one that ends in \/sendMessage/);
    expect(refused('telegram', TELEGRAM.replace('123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra', '123456789'))).toMatch(/bot token does not look right/);
    expect(refused('telegram', TELEGRAM.replace('-1001234567890', 'my group'))).toMatch(/not a Telegram chat id/);
    expect(refused('telegram', `${TELEGRAM}&text=hello`)).toMatch(/Leave out text=… from the Telegram URL/);
    expect(refused('telegram', `${TELEGRAM}&message_thread_id=general`)).toMatch(/not a topic id/);
    expect(refused('telegram', TELEGRAM.replace('api.telegram.org', 'api.telegram.org.evil.example'))).toMatch(/^That isn't a Telegram bot URL/);
    expect(refused('telegram', 'https://t.me/arb_reviews_bot')).toMatch(/^That isn't a Telegram bot URL/);
  });
});

describe('Google Chat', () => {
  test('a review: one card with a plain fallback, the review as card HTML, the facts and a button to the store', () => {
    const p = json<GoogleChatPayload>(formatReviewFor('googlechat', reviewInput()));
    expect([...jsonProblems(p), ...googleChatProblems(p)]).toEqual([]);
    expect(p.fallbackText).toBe('★★☆☆☆ New review of Lumen Notes: Sync broke after the update');
    const card = p.cardsV2[0].card;
    expect(card.header).toEqual({ title: '★★☆☆☆ Sync broke after the update', subtitle: 'New review of Lumen Notes on App Store' });
    expect(JSON.stringify(card.sections)).toContain('"topLabel":"Country","text":"🇺🇸 United States"');
    expect(card.sections.at(-1)).toEqual({ widgets: [{ buttonList: { buttons: [{ text: 'View on the App Store', onClick: { openLink: { url: PERMALINK } } }] } }] });
  });

  test('every message of an app goes to that app’s thread; another app has its own', () => {
    const review = json<GoogleChatPayload>(formatReviewFor('googlechat', reviewInput()));
    const welcome = json<GoogleChatPayload>(formatWelcomeFor('googlechat', welcomeInput));
    const other = json<GoogleChatPayload>(formatReviewFor('googlechat', reviewInput({ app: { appId: 'com.example.other', store: 'google_play_store', title: 'Other' } })));
    expect(review.thread.threadKey).toBe('arb-apple_app_store-1488000123');
    expect(welcome.thread).toEqual(review.thread);
    expect(other.thread.threadKey).toBe('arb-google_play_store-com.example.other');
    expect(threadKeyOf({ store: 'google_play_store', appId: 'a b/c' })).toBe('arb-google_play_store-a_b_c');
  });

  test('the URL replies in the thread (or starts it) and the deprecated threadKey query is dropped', () => {
    const url = googleChatAnswers.sendUrl!(`${GOOGLE_CHAT}&threadKey=mine`);
    const q = new URL(url).searchParams;
    expect(q.get('messageReplyOption')).toBe('REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    expect(q.get('threadKey')).toBeNull();
    expect(q.get('key')).toBe(new URL(GOOGLE_CHAT).searchParams.get('key'));
    expect(q.get('token')).toBe(new URL(GOOGLE_CHAT).searchParams.get('token'));
  });

  test('hostile text: card text escaped (no tag but ours), headers and fallback plain with < and @ broken, under 30,000 bytes', () => {
    const p = json<GoogleChatPayload>(formatReviewFor('googlechat', hostile));
    expect([...jsonProblems(p), ...googleChatProblems(p)]).toEqual([]);
    const serialised = JSON.stringify(p);
    expect(serialised).not.toContain('\u202E');
    expect(serialised.split('👨').length).toBe(serialised.split('👦').length); // no family cut in half
    const card = p.cardsV2[0].card;
    const body = (card.sections[0].widgets[0] as { textParagraph: { text: string } }).textParagraph.text;
    expect(body).toContain('&lt;users/all&gt;');
    expect(body).toContain('&lt;a href="https://evil.example"&gt;');
    expect(body).toContain('&amp;amp; &amp;lt;'); // the review's own entities are shown as typed
    expect(body).toContain(`@${ZWSP}all`);
    expect(body.endsWith('…')).toBe(true);
    expect(body).toContain('<br>');
    for (const t of [p.fallbackText, card.header.title, card.header.subtitle!]) {
      expect(t).not.toMatch(/<users|<b>|@(all|here|everyone)\b/);
      expect(t).toContain(`<${ZWSP}`);
    }
    expect(escapeGoogleChat('a & b < c > d\ne')).toBe('a &amp; b &lt; c &gt; d<br>e');
  });
});

describe('Telegram', () => {
  test('a review: HTML Telegram reads, the review in an expandable quote, the facts and the store link; previews off', () => {
    const p = json<TelegramPayload>(formatReviewFor('telegram', reviewInput()));
    expect([...jsonProblems(p), ...telegramProblems(p)]).toEqual([]);
    expect(p).toMatchObject({ parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
    expect(p.text.startsWith('<b>★★☆☆☆ Sync broke after the update</b>\nNew review of <b>Lumen Notes</b> on App Store')).toBe(true);
    expect(p.text).toContain('<blockquote expandable>Since 5.12 my notes');
    expect(p.text).toContain('<b>Country:</b> 🇺🇸 United States');
    expect(p.text.endsWith(`<a href="${PERMALINK}">View on the App Store</a>`)).toBe(true);
  });

  test('the chat and topic of the URL go in the body; the query stays off the URL posted to', () => {
    const url = `${TELEGRAM}&message_thread_id=42`;
    const body = json<TelegramPayload>(formatReviewFor('telegram', reviewInput()));
    expect(telegramAnswers.sendBody!(url, body)).toEqual({ chat_id: '-1001234567890', message_thread_id: 42, ...body });
    expect(telegramAnswers.sendUrl!(url)).toBe('https://api.telegram.org/bot123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra/sendMessage');
    expect(prepareTarget({ destinationId: 'd', platform: 'telegram', target: url }).postUrl).toBe(telegramAnswers.sendUrl!(url));
  });

  test('hostile text: < > & as entities, no tag or link but ours, no live mention, at most 4,096 characters', () => {
    const p = json<TelegramPayload>(formatReviewFor('telegram', hostile));
    expect([...jsonProblems(p), ...telegramProblems(p)]).toEqual([]);
    expect(p.text.length).toBeLessThanOrEqual(4_096);
    const read = parseTelegramHtml(p.text);
    if (!read.ok) throw new Error(read.error);
    expect(read.links).toEqual([PERMALINK]);
    expect(read.text).toContain('<users/all>'); // shown as typed, as text
    expect(read.text).toContain('<b>bold</b> <a href="https://evil.example">click</a>');
    expect(read.text).toContain('&amp; &lt; &#60;');
    expect(read.text).not.toMatch(/@(all|here|everyone)\b/);
    expect(read.text).not.toContain('\u202E');
    expect(p.text.split('👨').length).toBe(p.text.split('👦').length);
    expect(escapeTelegram('a & b < c > d @all')).toBe(`a &amp; b &lt; c &gt; d @${ZWSP}all`);
  });

  test('a cut never falls inside a tag or an entity, whatever the length of a review full of them', () => {
    const dense = '&<>"&amp;<b>' + `${FAMILY}&&<<>>`.repeat(800);
    for (let extra = 0; extra < 400; extra += 7) {
      const input = reviewInput({}, { body: dense.slice(0, 3_600 + extra * 3), title: `&<${'x'.repeat(extra)}>` });
      const p = json<TelegramPayload>(telegramReview(input));
      expect(p.text.length).toBeLessThanOrEqual(4_096);
      expect(telegramProblems(p)).toEqual([]);
    }
  });

  test('a spike alert and a weekly summary are Telegram HTML within the limit too', () => {
    const alert = formatFor('telegram', {
      type: 'alert',
      input: {
        episodeId: '7',
        app: { appId: '1', store: 'apple_app_store', title: 'Lumen <Notes>' },
        scope: { kind: 'app', value: '' },
        since: new Date('2026-11-24T09:14:00Z'),
        signals: [{ metric: 'low_share', reviews: 50, low: 21, share: 0.42, usualShare: 0.09 }],
        concentration: [],
        cited: [1, 2, 3, 4, 5, 6].map((id) => ({ reviewId: String(id), rating: 1, title: ATTACKS, body: HUGE, author: ATTACKS, country: 'us', version: '1', link: `https://arb.example/r?id=${id}&x=1` })),
        inboxUrl: 'https://arb.example/dashboard/reviews?app=a&rating=1',
      },
    });
    const a = json<TelegramPayload>(alert);
    expect(telegramProblems(a)).toEqual([]);
    const read = parseTelegramHtml(a.text);
    if (!read.ok) throw new Error(read.error);
    expect(read.links[0]).toBe('https://arb.example/r?id=1&x=1'); // the entity in the href is read back as &
  });
});

describe('what their answers mean', () => {
  const answer = (status: number, body: object, headers: Record<string, string> = {}): SendResult => ({
    ok: status < 300,
    status,
    retryAfter: headers['retry-after'] ? Number(headers['retry-after']) : null,
    headers,
    body: JSON.stringify(body),
  });
  const tg = (status: number, description: string, parameters?: object) => answer(status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });
  const google = (status: number, code: string, message: string, reason?: string) =>
    answer(status, { error: { code: status, message, status: code, ...(reason ? { details: [{ reason }] } : {}) } });

  test('Telegram: 429 waits parameters.retry_after; blocked, kicked, not found, a new supergroup and a revoked token disable, in words', () => {
    expect(classifyWebhookResponse('telegram', tg(429, 'Too Many Requests: retry after 7', { retry_after: 7 }))).toMatchObject({ type: 'rate_limited', waitMs: 7_000 });
    const blocked = classifyWebhookResponse('telegram', tg(403, 'Forbidden: bot was blocked by the user'));
    expect(blocked).toMatchObject({ type: 'gone', status: 403 });
    expect(blocked.type === 'gone' && blocked.error).toBe(
      'Telegram refused the message: the person this bot writes to has blocked it (HTTP 403, Forbidden: bot was blocked by the user). Unblock the bot in Telegram (open its chat and press Restart), then connect it again to keep receiving reviews.',
    );
    expect(classifyWebhookResponse('telegram', tg(403, 'Forbidden: bot was kicked from the supergroup chat'))).toMatchObject({ type: 'gone', error: expect.stringContaining('the bot was removed from the group or channel') });
    expect(classifyWebhookResponse('telegram', tg(403, 'Forbidden: bot is not a member of the channel chat'))).toMatchObject({ type: 'gone', error: expect.stringContaining('not a member') });
    expect(classifyWebhookResponse('telegram', tg(400, 'Bad Request: chat not found'))).toMatchObject({ type: 'gone', error: expect.stringContaining('the chat was not found') });
    expect(classifyWebhookResponse('telegram', tg(400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: -1009876543210 }))).toMatchObject({
      type: 'gone',
      error: expect.stringContaining('use chat_id=-1009876543210 in the URL'),
    });
    expect(classifyWebhookResponse('telegram', tg(401, 'Unauthorized'))).toMatchObject({ type: 'gone', error: expect.stringContaining('the bot token is no longer valid') });
    expect(classifyWebhookResponse('telegram', tg(400, "Bad Request: can't parse entities: unsupported start tag"))).toMatchObject({ type: 'rejected' });
    expect(classifyWebhookResponse('telegram', tg(502, 'Bad Gateway'))).toMatchObject({ type: 'transient' });
  });

  test('Google Chat: 429 waits 2 s; a bad key, a deleted webhook and a gone space disable; a bad message is rejected', () => {
    expect(classifyWebhookResponse('googlechat', google(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'))).toMatchObject({ type: 'rate_limited', waitMs: 2_000 });
    const deleted = classifyWebhookResponse('googlechat', google(403, 'PERMISSION_DENIED', 'The API is called without a valid token.'));
    expect(deleted).toMatchObject({ type: 'gone', error: expect.stringMatching(/^Google Chat refused the webhook: the webhook was deleted from its space.*\(HTTP 403, PERMISSION_DENIED: The API is called without a valid token\.\)\. Connect it again/) });
    expect(classifyWebhookResponse('googlechat', google(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID'))).toMatchObject({ type: 'gone', error: expect.stringContaining('its key is not valid') });
    expect(classifyWebhookResponse('googlechat', google(404, 'NOT_FOUND', 'Requested entity was not found.'))).toMatchObject({ type: 'gone', error: expect.stringContaining('its space no longer exists') });
    expect(classifyWebhookResponse('googlechat', google(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'))).toMatchObject({ type: 'rejected', error: 'Google Chat did not accept this message (HTTP 400, INVALID_ARGUMENT: Invalid JSON payload received.).' });
    expect(classifyWebhookResponse('googlechat', google(503, 'UNAVAILABLE', 'The service is currently unavailable.'))).toMatchObject({ type: 'transient' });
  });
});
