/**
 * The weekly summary on every platform: it says how it was made (AI or extractive), what changed, the themes or quotes
 * with links to the reviews, respects each platform's limits with the largest summary the server can store (six
 * themes of hostile text, long CJK quotes), and renders hostile text — the model's words included — harmlessly.
 */
import { describe, expect, test } from 'vitest';
import { formatFor } from '@/server/destinations/format';
import type { DiscordPayload } from '@/server/destinations/platforms/discord';
import { weekLabel } from '@/server/destinations/format/summaryView';
import type { Platform, SummaryMessageInput } from '@/server/destinations/types';
import { ATTACKS, expectHarmless, json } from './harmless';
import { emailProblems } from './platformRules';
import { UNSUBSCRIBE } from './sampleReviews';

const HUGE = `${ATTACKS} 電池の消耗がひどい `.repeat(200);
const LINK = (id: number) => `https://arb.example/dashboard/reviews?review=${id}`;
const INBOX = 'https://arb.example/dashboard/reviews?app=apple_app_store__1488000123&from=2026-11-16&to=2026-11-22';

const quote = (id: number, text = `Battery drain rvw${id}x`) => ({ reviewId: String(id), rating: 1, text, why: `cited for “Battery”`, link: LINK(id) });

function summary(overrides: Partial<SummaryMessageInput> = {}): SummaryMessageInput {
  return {
    summaryId: '42',
    app: { appId: '1488000123', store: 'apple_app_store', title: 'Lumen Notes' },
    from: '2026-11-16',
    to: '2026-11-22',
    method: 'llm',
    read: 40,
    overview: 'Battery complaints arrived with 2.0.',
    changes: 'Praise for sync gave way to battery complaints.',
    themes: [{ title: 'Battery drain', summary: 'The phone dies by noon.', reviews: 15, review_ids: ['1', '2', '3'], quotes: [quote(1), quote(2)] }],
    quotes: [],
    figureLines: ['40 reviews from 2026-11-16 to 2026-11-22 (30 from 2026-11-09 to 2026-11-15).', 'Average rating 2.88 (-1.20 from 4.08).', 'Version 2.0: 15 reviews, average 1.00 (new: none the period before).'],
    figures: { reviews: 40, previous_reviews: 30, average_rating: 2.88, previous_average_rating: 4.08, rating_change: -1.2, rising_terms: ['battery'], falling_terms: ['sync'], versions: [] },
    note: null,
    inboxUrl: INBOX,
    ...overrides,
  };
}

const hostile = summary({
  app: { appId: '1488000123', store: 'apple_app_store', title: `Evil ${ATTACKS}` },
  overview: HUGE,
  changes: HUGE,
  themes: [1, 2, 3, 4, 5, 6].map((n) => ({ title: `${ATTACKS} ${'T'.repeat(300)}`, summary: HUGE, reviews: 9, review_ids: [String(n)], quotes: [quote(n, HUGE), quote(n + 10, HUGE)] })),
  figureLines: Array.from({ length: 9 }, () => `Rising: “${ATTACKS}” ${'電'.repeat(500)}`),
  note: HUGE,
});
const extractive = summary({ method: 'extractive', read: null, overview: null, changes: null, themes: [], quotes: [1, 2, 3, 4, 5, 6].map((n) => ({ ...quote(n), why: 'the newest 1–2★ review' })) });

const ctx = { unsubscribeUrl: UNSUBSCRIBE };
const format = (platform: Platform, input: SummaryMessageInput) => formatFor(platform, { type: 'summary', input }, ctx);
describe('the summary says how it was made, what changed, and cites reviews with links', () => {
  test.each(['slack', 'msteams', 'mattermost', 'discord', 'webex', 'googlechat', 'telegram'] as const)('%s', (platform) => {
    for (const [input, label] of [
      [summary(), 'AI summary: themes written by a language model from 40 of the week’s reviews'],
      [extractive, 'Extractive summary: counts, terms and quotes taken from the reviews; no language model.'],
    ] as const) {
      const serialised = JSON.stringify(json(format(platform, input)));
      const plain = serialised.replace(/\\\\(.)/g, '$1');
      expect(plain).toContain('Weekly summary of Lumen Notes, 16–22 Nov 2026');
      expect(plain).toContain(label);
      expect(plain).toContain('Average rating 2.88 (-1.20 from 4.08).');
      expect(plain).toContain('Version 2.0: 15 reviews');
      for (const id of input.method === 'llm' ? [1, 2] : [1, 2, 3, 4, 5, 6]) {
        expect(serialised).toContain(`rvw${id}x`);
        expect(serialised).toContain(LINK(id));
      }
      if (input.method === 'llm') expect(plain).toContain('Battery drain (15 of 40 reviews read)');
    }
  });

  test('e-mail: subject, both parts, the quotes linked, the unsubscribe link', () => {
    const m = format('email', summary());
    if (m.kind !== 'email') throw new Error('expected an e-mail');
    expect(emailProblems(m, UNSUBSCRIBE)).toEqual([]);
    expect(m.subject).toBe('Weekly summary of Lumen Notes, 16–22 Nov 2026');
    expect(m.text).toContain('What changed:');
    expect(m.html).toContain(`href="${LINK(2)}"`);
  });

  test('signed webhook: summary.weekly with the figures as numbers and the cited ids', () => {
    const body = json<{ type: string; timestamp: string; data: Record<string, unknown> }>(format('webhook', summary()));
    expect(body.type).toBe('summary.weekly');
    expect(body.timestamp).toBe('2026-11-23T00:00:00.000Z');
    expect(body.data).toMatchObject({ id: '42', app_key: 'apple_app_store__1488000123', method: 'llm', week: { from: '2026-11-16', to: '2026-11-22' }, themes: [{ review_ids: ['1', '2', '3'] }] });
  });

  test('week labels across months and years', () => {
    expect(weekLabel('2026-11-30', '2026-12-06')).toBe('30 Nov 2026 – 6 Dec 2026');
    expect(weekLabel('2026-12-28', '2027-01-03')).toBe('28 Dec 2026 – 3 Jan 2027');
  });
});

describe('the largest hostile summary renders harmlessly within every limit', () => {
  test.each(['slack', 'msteams', 'mattermost', 'discord', 'webex', 'googlechat', 'telegram', 'email'] as const)('%s', (platform) => expectHarmless(platform, format(platform, hostile)));

  test('Discord keeps themes while the embed fits', () => {
    expect(json<DiscordPayload>(format('discord', hostile)).embeds[0].fields!.length).toBeGreaterThan(0);
  });
});
