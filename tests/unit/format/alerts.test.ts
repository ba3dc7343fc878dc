/**
 * The spike alert on every platform: it says what, how much, since when and where, quotes the cited reviews with their
 * links, respects each platform's limits, and renders hostile cited text (mentions, links, Markdown, HTML, 20,000
 * characters) as harmlessly as a review message does.
 */
import { describe, expect, test } from 'vitest';
import { formatFor } from '@/server/destinations/format';
import type { SlackPayload } from '@/server/destinations/platforms/slack';
import type { AlertMessageInput, Platform } from '@/server/destinations/types';
import { ATTACKS, expectHarmless, json } from './harmless';
import { emailProblems } from './platformRules';
import { UNSUBSCRIBE } from './sampleReviews';

const HUGE = `${ATTACKS} `.repeat(200);
const LINK = (id: number) => `https://arb.example/dashboard/reviews?review=${id}`;
const INBOX = 'https://arb.example/dashboard/reviews?app=apple_app_store__1488000123&rating=1%2C2&from=2026-11-24';

function alert(overrides: Partial<AlertMessageInput> = {}): AlertMessageInput {
  return {
    episodeId: '7',
    app: { appId: '1488000123', store: 'apple_app_store', title: 'Lumen Notes' },
    scope: { kind: 'app', value: '' },
    since: new Date('2026-11-24T09:14:00Z'),
    signals: [
      { metric: 'low_share', reviews: 50, low: 21, share: 0.42, usualShare: 0.09 },
      { metric: 'rating_drop', reviews: 50, average: 2.6, usualAverage: 4.4 },
    ],
    concentration: [
      { kind: 'version', value: '3.2.0', low: 18, reviews: 30 },
      { kind: 'country', value: 'us', low: 12, reviews: 25 },
    ],
    cited: [1, 2, 3].map((id) => ({ reviewId: String(id), rating: 1, title: `Crash ${id}`, body: `Crashes at start rvw${id}x`, author: `Ana ${id}`, country: 'us', version: '3.2.0', link: LINK(id) })),
    inboxUrl: INBOX,
    ...overrides,
  };
}

const hostile = alert({
  app: { appId: '1488000123', store: 'apple_app_store', title: `Evil ${ATTACKS}` },
  scope: { kind: 'version', value: `<!here> ${'9'.repeat(300)}` },
  concentration: [],
  cited: [1, 2, 3].map((id) => ({ reviewId: String(id), rating: 1, title: `${ATTACKS} ${'T'.repeat(400)}`, body: HUGE, author: `${ATTACKS} ${'A'.repeat(400)}`, country: 'us', version: ATTACKS, link: LINK(id) })),
});

const ctx = { unsubscribeUrl: UNSUBSCRIBE };
const format = (platform: Platform, input: AlertMessageInput) => formatFor(platform, { type: 'alert', input }, ctx);
describe('the alert says what, how much, since when, where, and cites reviews with links', () => {
  const FACTS = ['1–2★ reviews: 21 of the last 50 (42 %), usually 9 %', 'Average rating: 2.6★ over the last 50 reviews, usually 4.4★ (−1.8)', 'Since 24 Nov 2026, 09:14 UTC', 'Most of them: version 3.2.0 (18), 🇺🇸 United States (12)'];

  test.each(['slack', 'msteams', 'mattermost', 'discord', 'webex', 'googlechat', 'telegram'] as const)('%s', (platform) => {
    const serialised = JSON.stringify(json(format(platform, alert())));
    expect(serialised).toContain('Spike in 1–2★ reviews of Lumen Notes, and its average rating dropped');
    // Escaping differs per platform: compare what the facts say with the escapes taken out.
    const plain = serialised.replace(/\\\\(.)/g, '$1');
    for (const fact of FACTS) expect(plain).toContain(fact);
    for (const id of [1, 2, 3]) {
      expect(serialised).toContain(`rvw${id}x`);
      expect(serialised).toContain(LINK(id));
    }
  });

  test('e-mail: subject, both parts, the cited reviews linked, the unsubscribe link', () => {
    const m = format('email', alert());
    if (m.kind !== 'email') throw new Error('expected an e-mail');
    expect(emailProblems(m, UNSUBSCRIBE)).toEqual([]);
    expect(m.subject).toBe('⚠️ Spike in 1–2★ reviews of Lumen Notes, and its average rating dropped');
    for (const fact of FACTS) expect(m.text).toContain(fact);
    expect(m.html).toContain(`href="${LINK(2)}"`);
    expect(m.html).toContain(`href="${INBOX.replace(/&/g, '&amp;')}"`);
  });

  test('signed webhook: alert.spike with the numbers and the cited review ids', () => {
    const body = json<{ type: string; data: Record<string, unknown> }>(format('webhook', alert()));
    expect(body.type).toBe('alert.spike');
    expect(body.data).toMatchObject({ id: '7', app_key: 'apple_app_store__1488000123', cited_review_ids: ['1', '2', '3'], scope: { kind: 'app', value: '' } });
  });

  test('a country alert names the country, a rating-only alert says so', () => {
    const m = json<SlackPayload>(format('slack', alert({ scope: { kind: 'country', value: 'br' }, signals: [{ metric: 'rating_drop', reviews: 20, average: 3.1, usualAverage: 4.5 }] })));
    expect(m.text).toBe('⚠️ Average rating of Lumen Notes dropped in 🇧🇷 Brazil (App Store)');
  });
});

describe('hostile cited reviews render harmlessly within every limit', () => {
  test.each(['slack', 'msteams', 'mattermost', 'discord', 'webex', 'googlechat', 'telegram', 'email'] as const)('%s', (platform) => expectHarmless(platform, format(platform, hostile)));
});

