import { describe, expect, test } from 'vitest';
import { formatFor, formatReviewFor, formatWelcomeFor } from '@/server/destinations/format';
import type { DiscordPayload } from '@/server/destinations/platforms/discord';
import type { MattermostPayload } from '@/server/destinations/platforms/mattermost';
import type { TeamsPayload } from '@/server/destinations/platforms/msteams';
import type { SlackPayload } from '@/server/destinations/platforms/slack';
import type { WebexPayload } from '@/server/destinations/platforms/webex';
import { PLATFORMS, type FormattedMessage, type Platform } from '@/server/destinations/types';
import { discordProblems, emailProblems, googleChatProblems, jsonProblems, mattermostProblems, slackProblems, teamsProblems, telegramProblems, webexProblems } from './platformRules';
import { PERMALINK, UNSUBSCRIBE, playInput, reviewInput, welcomeInput } from './sampleReviews';

const json = <T>(m: FormattedMessage): T => {
  if (m.kind !== 'json') throw new Error('expected a JSON payload');
  return m.body as T;
};
const email = (m: FormattedMessage) => {
  if (m.kind !== 'email') throw new Error('expected an e-mail');
  return m;
};
const ctx = { unsubscribeUrl: UNSUBSCRIBE };

/** Every platform's rule checker, so each test can run all of them. */
function problems(platform: Platform, m: FormattedMessage): string[] {
  if (platform === 'email') return emailProblems(email(m), UNSUBSCRIBE);
  const body = json<unknown>(m);
  if (platform === 'webhook') return jsonProblems(body);
  const rules = { slack: slackProblems, msteams: teamsProblems, mattermost: mattermostProblems, discord: discordProblems, webex: webexProblems, googlechat: googleChatProblems, telegram: telegramProblems }[platform];
  return [...jsonProblems(body), ...rules(body)];
}

/** Everything a person would read, flattened, to check the content is there. */
const visible = (m: FormattedMessage) => (m.kind === 'email' ? `${m.subject}\n${m.text}` : JSON.stringify(m.body));

/** The platforms people read; a signed webhook carries data for programs (tests/unit/webhookFormat.test.ts). */
const READ_BY_PEOPLE = PLATFORMS.filter((p) => p !== 'webhook');

describe.each(READ_BY_PEOPLE)('%s', (platform) => {
  test('a new App Store review: valid payload with stars, title, body, author, app, store, country, version and link', () => {
    const m = formatReviewFor(platform, reviewInput(), ctx);
    expect(problems(platform, m)).toEqual([]);
    const text = visible(m);
    for (const part of ['★★☆☆☆', 'Sync broke after the update', 'iPad and iPhone', 'kayak', 'Lumen Notes', 'App Store', '🇺🇸 United States', '5.12.0', PERMALINK]) {
      expect(text.replace(/\\(.)/g, '$1')).toContain(part);
    }
    expect(text).toContain('New review');
  });

  test('an updated review is labelled as such and shows the old rating', () => {
    const m = formatReviewFor(platform, reviewInput({ kind: 'updated', previous: { rating: 5, body: 'Loved it', title: 'Great' } }), ctx);
    expect(problems(platform, m)).toEqual([]);
    const text = visible(m);
    expect(text).toContain('Updated review');
    expect(text).toContain('★★★★★'); // the rating before the edit
    expect(text).toContain('★★☆☆☆');
    expect(text).not.toContain('New review');
  });

  test('a Google Play review without title or country shows the language, sentiment and translation', () => {
    const m = formatReviewFor(platform, playInput(), ctx);
    expect(problems(platform, m)).toEqual([]);
    const text = visible(m).replace(/\\(.)/g, '$1');
    for (const part of ['★☆☆☆☆', 'Stürzt beim Start ab.', 'Google Play', 'German', 'Negative', 'Translation (English)', 'Crashes on start.']) expect(text).toContain(part);
    expect(text).not.toContain('United States');
  });

  test('a rating-only review says so instead of leaving a hole', () => {
    const m = formatReviewFor(platform, reviewInput({}, { title: null, body: '' }), ctx);
    expect(problems(platform, m)).toEqual([]);
    expect(visible(m)).toMatch(/rating only/);
  });

  test('the welcome message names the app, the store, the reviews that follow and where to manage it', () => {
    const m = formatWelcomeFor(platform, welcomeInput, ctx);
    expect(problems(platform, m)).toEqual([]);
    const text = visible(m);
    expect(text).toContain('Lumen Notes');
    expect(text).toContain('App Store');
    expect(text).toContain('5 most recent reviews follow');
    expect(text).toContain('https://arb.example/dashboard');
  });

  test('formatFor dispatches reviews and welcomes', () => {
    expect(formatFor(platform, { type: 'review', input: reviewInput() }, ctx)).toEqual(formatReviewFor(platform, reviewInput(), ctx));
    expect(formatFor(platform, { type: 'welcome', input: welcomeInput }, ctx)).toEqual(formatWelcomeFor(platform, welcomeInput, ctx));
  });
});

describe('platform specifics', () => {
  test('Slack: header plain_text, body section mrkdwn verbatim, fields, context link; unfurls off', () => {
    const p = json<SlackPayload>(formatReviewFor('slack', reviewInput()));
    expect(p.blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'context']);
    expect(p.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: '★★☆☆☆ Sync broke after the update', emoji: true } });
    expect(p.blocks[1]).toMatchObject({ type: 'section', text: { type: 'mrkdwn', verbatim: true } });
    expect(JSON.stringify(p.blocks[3])).toContain(`<${PERMALINK}|View on the App Store>`);
    expect(p).toMatchObject({ unfurl_links: false, unfurl_media: false });
  });

  test('Slack: a long title is cut to 150 characters in the header', () => {
    const p = json<SlackPayload>(formatReviewFor('slack', reviewInput({}, { title: 'T'.repeat(400) })));
    const header = p.blocks[0] as { text: { text: string } };
    expect(header.text.text.length).toBeLessThanOrEqual(150);
    expect(header.text.text.endsWith('…')).toBe(true);
  });

  test('Teams: Adaptive Card 1.4 in the message envelope with a FactSet and an OpenUrl action', () => {
    const p = json<TeamsPayload>(formatReviewFor('msteams', reviewInput()));
    const card = p.attachments[0].content;
    expect(p.attachments[0]).toMatchObject({ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null });
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(card.body.some((b) => b.type === 'FactSet')).toBe(true);
    expect(card.actions).toEqual([{ type: 'Action.OpenUrl', title: 'View on the App Store', url: PERMALINK }]);
  });

  test('Mattermost: one attachment with colour by rating, title link and short fields', () => {
    const p = json<MattermostPayload>(formatReviewFor('mattermost', reviewInput()));
    expect(p.attachments).toHaveLength(1);
    expect(p.attachments[0]).toMatchObject({ color: '#d93025', title_link: PERMALINK, author_name: 'kayak_dad', title: '★★☆☆☆ Sync broke after the update' });
    expect(p.attachments[0].fields.find((f) => f.title === 'Country')).toEqual({ short: true, title: 'Country', value: '🇺🇸 United States' });
    const good = json<MattermostPayload>(formatReviewFor('mattermost', reviewInput({}, { rating: 5 })));
    expect(good.attachments[0].color).toBe('#188038');
  });

  test('Discord: allowed_mentions parse [] on every message, one embed with url, timestamp, author and footer', () => {
    const p = json<DiscordPayload>(formatReviewFor('discord', reviewInput()));
    expect(p.allowed_mentions).toEqual({ parse: [] });
    expect(json<DiscordPayload>(formatWelcomeFor('discord', welcomeInput)).allowed_mentions).toEqual({ parse: [] });
    expect(p.embeds).toHaveLength(1);
    expect(p.embeds[0]).toMatchObject({ url: PERMALINK, timestamp: '2024-05-14T15:41:09.000Z', author: { name: 'kayak_dad' }, color: 0xd93025 });
    expect(p.embeds[0].footer?.text).toBe('Lumen Notes · App Store · New review');
  });

  test('Webex: markdown with the link at the end', () => {
    const p = json<WebexPayload>(formatReviewFor('webex', reviewInput()));
    expect(p.markdown.startsWith('**★★☆☆☆ Sync broke after the update**')).toBe(true);
    expect(p.markdown.endsWith(`[View on the App Store](${PERMALINK})`)).toBe(true);
  });

  test('E-mail: subject, HTML and text parts, unsubscribe link and one-click headers', () => {
    const m = email(formatReviewFor('email', reviewInput(), ctx));
    expect(m.subject).toBe('★★☆☆☆ New review of Lumen Notes: Sync broke after the update');
    expect(m.headers).toEqual({ 'List-Unsubscribe': `<${UNSUBSCRIBE}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(m.html).toContain(`href="${UNSUBSCRIBE.replace('&', '&amp;')}"`);
    expect(m.html).toContain(`href="${PERMALINK}"`);
    expect(m.html).toContain('Since 5.12 my notes don’t sync between iPad and iPhone anymore.<br>');
    expect(m.text).toContain(`Unsubscribe: ${UNSUBSCRIBE}`);
    const welcome = email(formatWelcomeFor('email', welcomeInput, ctx));
    expect(welcome.subject).toBe('You will get new reviews of Lumen Notes by e-mail');
    expect(welcome.text).toContain('will be sent to this address');
  });

  test('E-mail needs an unsubscribe URL', () => {
    expect(() => formatFor('email', { type: 'review', input: reviewInput() })).toThrow(/unsubscribe/);
    expect(() => formatReviewFor('email', reviewInput(), { unsubscribeUrl: 'javascript:alert(1)' })).toThrow(/unsubscribe/);
  });
});
