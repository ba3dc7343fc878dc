/**
 * A hostile review renders harmlessly on every platform. The review's title, body, author (and the
 * translation, and even the app's store title) carry mention syntax of every platform, disguised links, Markdown,
 * HTML, an RTL override, ZWJ emoji and 20,000 characters. Each payload must: fire no mention, carry no link but our
 * own, respect every length limit, be valid JSON (no split characters), and keep the e-mail HTML free of user markup.
 */
import { describe, expect, test } from 'vitest';
import { formatReviewFor } from '@/server/destinations/format';
import type { DiscordPayload } from '@/server/destinations/platforms/discord';
import type { MattermostPayload } from '@/server/destinations/platforms/mattermost';
import type { TeamsPayload } from '@/server/destinations/platforms/msteams';
import type { SlackPayload } from '@/server/destinations/platforms/slack';
import type { WebexPayload } from '@/server/destinations/platforms/webex';
import type { FormattedMessage, ReviewMessageInput } from '@/server/destinations/types';
import { discordProblems, emailProblems, jsonProblems, mattermostProblems, slackProblems, teamsProblems, webexProblems } from './platformRules';
import { PERMALINK, UNSUBSCRIBE, reviewInput } from './sampleReviews';

const FAMILY = '👨‍👩‍👧‍👦';
const RLO = '\u202E';
const INJECTIONS = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '@everyone',
  '@here',
  '@channel',
  '@all',
  '<@U123>',
  '<@&987654321>',
  '<#C024BE7LD>',
  '<@all>',
  '<https://evil.example|click me>',
  '[click](https://evil.example)',
  '**bold** _x_ ~~s~~ `code` > quote # h',
  '<script>alert(1)</script>',
  '<a href="https://evil.example">html link</a>',
  `${RLO}txt.exe`,
  `${FAMILY} 🏳️‍🌈 👩🏽‍💻`,
].join(' \n');

/** 20,000 characters of hostile text, with ZWJ emoji all the way so any cut lands near one. */
const HUGE = (INJECTIONS + '\n' + `${FAMILY}@here<!channel>[x](https://evil.example) `.repeat(1000)).slice(0, 20_000);

const hostile: ReviewMessageInput = reviewInput(
  {
    kind: 'updated',
    previous: { rating: 5, body: INJECTIONS, title: INJECTIONS },
    app: { appId: '1488000123', store: 'apple_app_store', title: 'Evil @here <!channel> App', storeUrl: 'https://apps.apple.com/us/app/id1488000123' },
    translation: { text: HUGE, language: 'en' },
    sentiment: { label: 'negative', score: -1 },
  },
  { title: `${INJECTIONS} ${'T'.repeat(500)}`, body: HUGE, authorName: `${INJECTIONS} ${'A'.repeat(500)}`, appVersion: '<!here> 1.0' },
);

const ctx = { unsubscribeUrl: UNSUBSCRIBE };
const json = <T>(m: FormattedMessage): T => (m.kind === 'json' ? (m.body as T) : (() => { throw new Error('not JSON'); })());

/** Markdown text with every backslash escape blanked out: what remains is what a Markdown parser would act on. */
const unescaped = (s: string) => s.replace(/\\[\s\S]/g, '·');
/** Mentions that would fire as typed (a zero-width space after '@' defuses them). */
const LIVE_AT_MENTION = /@(everyone|here|channel|all)\b/i;

function commonChecks(serialised: string) {
  expect(serialised).not.toContain(RLO);
  expect(serialised).not.toMatch(/\\u202e/i);
  // ZWJ sequences are never cut: every family that starts also ends.
  expect(serialised.split('👨').length).toBe(serialised.split('👦').length);
}

describe('a hostile review renders harmlessly', () => {
  test('Slack: every payload rule holds, < is escaped everywhere mrkdwn is parsed, the only link is ours', () => {
    const m = formatReviewFor('slack', hostile);
    const p = json<SlackPayload>(m);
    expect([...jsonProblems(p), ...slackProblems(p)]).toEqual([]);
    const serialised = JSON.stringify(p);
    commonChecks(serialised);

    const mrkdwnTexts: string[] = [p.text];
    for (const b of p.blocks) {
      if (b.type === 'header') expect(b.text.type).toBe('plain_text'); // never parsed for mentions or links
      if (b.type === 'section') {
        if (b.text) mrkdwnTexts.push(b.text.text);
        for (const f of b.fields ?? []) mrkdwnTexts.push(f.text);
        if (b.text) expect(b.text).toMatchObject({ type: 'mrkdwn', verbatim: true });
      }
      if (b.type === 'context') for (const e of b.elements) mrkdwnTexts.push(e.text);
    }
    const links: string[] = [];
    for (const t of mrkdwnTexts) {
      // Strip our own links first; nothing else may open with '<'.
      const rest = t.replace(/<(https:\/\/[^|>]+)\|[^<>]*>/g, (_, url: string) => {
        links.push(url);
        return '';
      });
      expect(rest).not.toContain('<');
      expect(rest).not.toMatch(LIVE_AT_MENTION);
      expect(rest).not.toMatch(/[*_~`]{2}/); // no formatting pairs from the review
    }
    expect(links).toEqual([PERMALINK]);
  });

  test('Microsoft Teams: the card stays under 20 KB, Markdown links are escaped, no <at> mention, one OpenUrl to the review', () => {
    const p = json<TeamsPayload>(formatReviewFor('msteams', hostile));
    expect([...jsonProblems(p), ...teamsProblems(p)]).toEqual([]);
    commonChecks(JSON.stringify(p));
    const card = p.attachments[0].content;
    const texts = card.body.flatMap((b) => (b.type === 'TextBlock' ? [b.text] : b.facts.map((f) => f.value)));
    for (const t of texts) {
      const live = unescaped(t);
      expect(live).not.toMatch(/\]\(/); // no [text](url) link
      expect(live).not.toMatch(/\[/);
      expect(live).not.toMatch(/<at>/i);
    }
    expect(card.actions).toEqual([{ type: 'Action.OpenUrl', title: 'View on the App Store', url: PERMALINK }]);
  });

  test('Mattermost: under 16,383 characters, no live @mention or <…> in any field, no Markdown link', () => {
    const p = json<MattermostPayload>(formatReviewFor('mattermost', hostile));
    expect([...jsonProblems(p), ...mattermostProblems(p)]).toEqual([]);
    commonChecks(JSON.stringify(p));
    const a = p.attachments[0];
    // Markdown-rendered parts (and the ones Mattermost runs its Slack <url|text> conversion on).
    for (const t of [a.text, a.pretext ?? '', ...a.fields.map((f) => f.value)]) {
      const live = unescaped(t);
      expect(live).not.toContain('<');
      expect(live).not.toMatch(LIVE_AT_MENTION);
      expect(live).not.toMatch(/\[|\]\(/);
    }
    // The review's own formatting never survives (the pretext's bold label is ours).
    for (const t of [a.text, ...a.fields.map((f) => f.value)]) expect(unescaped(t)).not.toMatch(/\*\*|~~|`/);
    // Plain-text parts: mention and <!channel> syntax broken by a zero-width space.
    for (const t of [a.author_name, a.title, a.footer, a.fallback]) {
      expect(t).not.toMatch(LIVE_AT_MENTION);
      expect(t).not.toMatch(/<[!@#h]/);
    }
    expect(a.title_link).toBe(PERMALINK);
  });

  test('Discord: allowed_mentions parse [], every Discord limit, no live mention, no masked link', () => {
    const p = json<DiscordPayload>(formatReviewFor('discord', hostile));
    expect([...jsonProblems(p), ...discordProblems(p)]).toEqual([]);
    expect(p.allowed_mentions).toEqual({ parse: [] });
    expect(p.content).toBeUndefined();
    commonChecks(JSON.stringify(p));
    const e = p.embeds[0];
    for (const t of [e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value])]) {
      const live = unescaped(t);
      expect(live).not.toMatch(LIVE_AT_MENTION);
      expect(live).not.toContain('<'); // <@U…>, <@&role>, <#channel>, <t:…>
      expect(live).not.toMatch(/\[|\]\(/);
      expect(live).not.toMatch(/\*\*|~~|`|^#|^>/m);
    }
    for (const t of [e.author?.name ?? '', e.footer?.text ?? '']) expect(t).not.toMatch(LIVE_AT_MENTION);
    expect(e.url).toBe(PERMALINK);
    expect(e.description!.endsWith('…')).toBe(true);
  });

  test('Webex: under 7,000 bytes, no <@all> or other < at all, the only link is ours', () => {
    const p = json<WebexPayload>(formatReviewFor('webex', hostile));
    expect([...jsonProblems(p), ...webexProblems(p)]).toEqual([]);
    commonChecks(JSON.stringify(p));
    expect(p.markdown).not.toContain('<');
    const live = unescaped(p.markdown);
    expect(live).not.toMatch(LIVE_AT_MENTION);
    const links = [...live.matchAll(/\[[^\]]*\]\(([^)]*)\)/g)].map((m) => m[1]);
    expect(links).toEqual([PERMALINK]);
  });

  test('E-mail: one-line subject, HTML with no user markup and only our links, text part intact', () => {
    const m = formatReviewFor('email', hostile, ctx);
    if (m.kind !== 'email') throw new Error('expected an e-mail');
    expect(emailProblems(m, UNSUBSCRIBE)).toEqual([]);
    commonChecks(m.subject + m.html + m.text);
    expect(m.html).not.toMatch(/<script/i);
    expect(m.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(m.html).toContain('&lt;a href=&quot;https://evil.example&quot;&gt;html link&lt;/a&gt;');
    const hrefs = [...m.html.matchAll(/href="([^"]*)"/g)].map((x) => x[1].replace(/&amp;/g, '&'));
    expect(new Set(hrefs)).toEqual(new Set([PERMALINK, UNSUBSCRIBE]));
    // Only our own tags: every '<' in the HTML opens a tag from the template.
    const tags = new Set([...m.html.matchAll(/<\/?([a-z0-9!]+)/gi)].map((x) => x[1].toLowerCase()));
    for (const t of tags) expect(['!doctype', 'html', 'head', 'meta', 'title', 'body', 'div', 'table', 'tr', 'td', 'strong', 'br', 'a', 'em']).toContain(t);
    expect(m.text).toContain('<!channel>'); // the plain-text part shows the review as written: nothing parses it
  });
});
