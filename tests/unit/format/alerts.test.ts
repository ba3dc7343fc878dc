/**
 * The spike alert on every platform: it says what, how much, since when and where, quotes the cited reviews with their
 * links, respects each platform's limits, and renders hostile cited text (mentions, links, Markdown, HTML, 20,000
 * characters) as harmlessly as a review message does.
 */
import { describe, expect, test } from 'vitest';
import { formatFor } from '@/server/destinations/format';
import type { DiscordPayload } from '@/server/destinations/format/discord';
import type { MattermostPayload } from '@/server/destinations/format/mattermost';
import type { TeamsPayload } from '@/server/destinations/format/msteams';
import type { SlackPayload } from '@/server/destinations/format/slack';
import type { WebexPayload } from '@/server/destinations/format/webex';
import type { AlertMessageInput, FormattedMessage, Platform } from '@/server/destinations/types';
import { discordProblems, emailProblems, jsonProblems, mattermostProblems, slackProblems, teamsProblems, webexProblems } from './platformRules';
import { UNSUBSCRIBE } from './sampleReviews';

const ATTACKS = '<!channel> @here @everyone <@U123> <@all> <https://evil.example|click> [click](https://evil.example) **b** `c` <script>x</script> 👨‍👩‍👧‍👦';
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
const json = <T,>(m: FormattedMessage): T => {
  if (m.kind !== 'json') throw new Error('not JSON');
  return m.body as T;
};
/** Markdown text with every backslash escape blanked out: what a Markdown parser would act on. */
const unescaped = (s: string) => s.replace(/\\[\s\S]/g, '·');
const LIVE_AT_MENTION = /@(everyone|here|channel|all)\b/i;

describe('the alert says what, how much, since when, where, and cites reviews with links', () => {
  const FACTS = ['1–2★ reviews: 21 of the last 50 (42 %), usually 9 %', 'Average rating: 2.6★ over the last 50 reviews, usually 4.4★ (−1.8)', 'Since 24 Nov 2026, 09:14 UTC', 'Most of them: version 3.2.0 (18), 🇺🇸 United States (12)'];

  test.each(['slack', 'msteams', 'mattermost', 'discord', 'webex'] as const)('%s', (platform) => {
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
  test('Slack', () => {
    const p = json<SlackPayload>(format('slack', hostile));
    expect([...jsonProblems(p), ...slackProblems(p)]).toEqual([]);
    for (const b of p.blocks) {
      const texts = b.type === 'section' ? [b.text?.text ?? ''] : b.type === 'context' ? b.elements.map((e) => e.text) : [];
      for (const t of texts) {
        const rest = t.replace(/<(https:\/\/[^|>]+)\|[^<>]*>/g, (_, url: string) => (url.startsWith('https://arb.example/') ? '' : 'FOREIGN LINK'));
        expect(rest).not.toContain('<');
        expect(rest).not.toMatch(LIVE_AT_MENTION);
      }
    }
  });

  test('Microsoft Teams', () => {
    const p = json<TeamsPayload>(format('msteams', hostile));
    expect([...jsonProblems(p), ...teamsProblems(p)]).toEqual([]);
    for (const b of p.attachments[0].content.body) {
      if (b.type !== 'TextBlock') continue;
      const links = [...unescaped(b.text).matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]);
      for (const l of links) expect(l.startsWith('https://arb.example/')).toBe(true);
      expect(unescaped(b.text)).not.toMatch(/<at>/i);
    }
  });

  test('Mattermost', () => {
    const p = json<MattermostPayload>(format('mattermost', hostile));
    expect([...jsonProblems(p), ...mattermostProblems(p)]).toEqual([]);
    const a = p.attachments[0];
    for (const t of [a.text, a.title, ...a.fields.map((f) => f.value)]) {
      const live = unescaped(t).replace(/\]\(https:\/\/arb\.example\/[^)]*\)/g, '');
      expect(live).not.toContain('<');
      expect(live).not.toMatch(LIVE_AT_MENTION);
      expect(live).not.toContain('](');
    }
    for (const t of [a.fallback, ...a.fields.map((f) => f.title)]) expect(t).not.toMatch(LIVE_AT_MENTION);
  });

  test('Discord', () => {
    const p = json<DiscordPayload>(format('discord', hostile));
    expect([...jsonProblems(p), ...discordProblems(p)]).toEqual([]);
    expect(p.allowed_mentions).toEqual({ parse: [] });
    const e = p.embeds[0];
    for (const t of [e.description ?? '', ...(e.fields ?? []).map((f) => f.value)]) {
      const live = unescaped(t).replace(/\]\(https:\/\/arb\.example\/[^)]*\)/g, '');
      expect(live).not.toContain('<');
      expect(live).not.toMatch(LIVE_AT_MENTION);
      expect(live).not.toContain('](');
    }
  });

  test('Webex', () => {
    const p = json<WebexPayload>(format('webex', hostile));
    expect([...jsonProblems(p), ...webexProblems(p)]).toEqual([]);
    expect(p.markdown).not.toContain('<');
    const links = [...unescaped(p.markdown).matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]);
    for (const l of links) expect(l.startsWith('https://arb.example/')).toBe(true);
    expect(unescaped(p.markdown)).not.toMatch(LIVE_AT_MENTION);
  });

  test('E-mail', () => {
    const m = format('email', hostile);
    if (m.kind !== 'email') throw new Error('expected an e-mail');
    expect(emailProblems(m, UNSUBSCRIBE)).toEqual([]);
    expect(m.html).not.toMatch(/<script/i);
    const hrefs = [...m.html.matchAll(/href="([^"]*)"/g)].map((x) => x[1].replace(/&amp;/g, '&'));
    for (const h of hrefs) expect(h.startsWith('https://arb.example/')).toBe(true);
  });
});
