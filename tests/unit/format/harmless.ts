/**
 * What "harmless within every limit" means for a message built from hostile text, on each platform: no limit broken,
 * no live mention, no link but ARB's own (https://arb.example/ in these tests), no HTML that runs. Shared by the
 * tests of every message kind.
 */
import { expect } from 'vitest';
import type { DiscordPayload } from '@/server/destinations/platforms/discord';
import type { MattermostPayload } from '@/server/destinations/platforms/mattermost';
import type { TeamsPayload } from '@/server/destinations/platforms/msteams';
import type { SlackPayload } from '@/server/destinations/platforms/slack';
import type { WebexPayload } from '@/server/destinations/platforms/webex';
import type { FormattedMessage, Platform } from '@/server/destinations/types';
import type { GoogleChatPayload } from '@/server/destinations/platforms/googlechat';
import type { TelegramPayload } from '@/server/destinations/platforms/telegram';
import { parseTelegramHtml } from '../../fakes/telegramHtml';
import { discordProblems, emailProblems, googleChatProblems, jsonProblems, mattermostProblems, slackProblems, teamsProblems, telegramProblems, webexProblems } from './platformRules';
import { UNSUBSCRIBE } from './sampleReviews';

export const ATTACKS = '<!channel> @here @everyone <@U123> <@all> <https://evil.example|click> [click](https://evil.example) **b** `c` <script>x</script> 👨‍👩‍👧‍👦';
export const LIVE_AT_MENTION = /@(everyone|here|channel|all)\b/i;
/** Markdown text with every backslash escape blanked out: what a Markdown parser would act on. */
export const unescaped = (s: string) => s.replace(/\\[\s\S]/g, '·');
export const json = <T,>(m: FormattedMessage): T => {
  if (m.kind !== 'json') throw new Error('not JSON');
  return m.body as T;
};

export function expectHarmless(platform: Platform, m: FormattedMessage): void {
  switch (platform) {
    case 'slack': {
      const p = json<SlackPayload>(m);
      expect([...jsonProblems(p), ...slackProblems(p)]).toEqual([]);
      for (const b of p.blocks) {
        const texts = b.type === 'section' ? [b.text?.text ?? ''] : b.type === 'context' ? b.elements.map((e) => e.text) : [];
        for (const t of texts) {
          const rest = t.replace(/<(https:\/\/[^|>]+)\|[^<>]*>/g, (_, url: string) => (url.startsWith('https://arb.example/') ? '' : 'FOREIGN LINK'));
          expect(rest).not.toContain('<');
          expect(rest).not.toMatch(LIVE_AT_MENTION);
        }
      }
      return;
    }
    case 'msteams': {
      const p = json<TeamsPayload>(m);
      expect([...jsonProblems(p), ...teamsProblems(p)]).toEqual([]);
      for (const b of p.attachments[0].content.body) {
        if (b.type !== 'TextBlock') continue;
        const links = [...unescaped(b.text).matchAll(/\]\(([^)]*)\)/g)].map((x) => x[1]);
        for (const l of links) expect(l.startsWith('https://arb.example/')).toBe(true);
        expect(unescaped(b.text)).not.toMatch(/<at>/i);
      }
      return;
    }
    case 'mattermost': {
      const p = json<MattermostPayload>(m);
      expect([...jsonProblems(p), ...mattermostProblems(p)]).toEqual([]);
      const a = p.attachments[0];
      for (const t of [a.text, a.title, ...a.fields.map((f) => f.value)]) {
        const live = unescaped(t).replace(/\]\(https:\/\/arb\.example\/[^)]*\)/g, '');
        expect(live).not.toContain('<');
        expect(live).not.toMatch(LIVE_AT_MENTION);
        expect(live).not.toContain('](');
      }
      for (const t of [a.fallback, ...a.fields.map((f) => f.title)]) expect(t).not.toMatch(LIVE_AT_MENTION);
      return;
    }
    case 'discord': {
      const p = json<DiscordPayload>(m);
      expect([...jsonProblems(p), ...discordProblems(p)]).toEqual([]);
      expect(p.allowed_mentions).toEqual({ parse: [] });
      const e = p.embeds[0];
      for (const t of [e.description ?? '', ...(e.fields ?? []).map((f) => f.value)]) {
        const live = unescaped(t).replace(/\]\(https:\/\/arb\.example\/[^)]*\)/g, '');
        expect(live).not.toContain('<');
        expect(live).not.toMatch(LIVE_AT_MENTION);
        expect(live).not.toContain('](');
      }
      return;
    }
    case 'webex': {
      const p = json<WebexPayload>(m);
      expect([...jsonProblems(p), ...webexProblems(p)]).toEqual([]);
      expect(p.markdown).not.toContain('<');
      const links = [...unescaped(p.markdown).matchAll(/\]\(([^)]*)\)/g)].map((x) => x[1]);
      for (const l of links) expect(l.startsWith('https://arb.example/')).toBe(true);
      expect(unescaped(p.markdown)).not.toMatch(LIVE_AT_MENTION);
      return;
    }
    case 'googlechat': {
      const p = json<GoogleChatPayload>(m);
      expect([...jsonProblems(p), ...googleChatProblems(p)]).toEqual([]);
      const card = p.cardsV2[0].card;
      const texts = card.sections.flatMap((s) => [s.header ?? '', ...s.widgets.flatMap((w) => ('textParagraph' in w ? [w.textParagraph.text] : 'decoratedText' in w ? [w.decoratedText.text] : []))]);
      for (const t of texts) {
        // Only ARB's own tags (googleChatProblems) and links; no live mention.
        for (const [, href] of t.matchAll(/<a href="([^"]*)"/g)) expect(href.startsWith('https://arb.example/')).toBe(true);
        expect(t).not.toMatch(LIVE_AT_MENTION);
      }
      for (const t of [p.fallbackText, card.header.title, card.header.subtitle ?? '']) {
        expect(t).not.toMatch(LIVE_AT_MENTION);
        expect(t).not.toMatch(/<[!@#a-z/]/i); // <users/all>, <!channel>, tags: broken by a zero-width space
      }
      for (const s of card.sections) for (const w of s.widgets) if ('buttonList' in w) for (const b of w.buttonList.buttons) expect(b.onClick.openLink.url.startsWith('https://arb.example/')).toBe(true);
      return;
    }
    case 'telegram': {
      const p = json<TelegramPayload>(m);
      expect([...jsonProblems(p), ...telegramProblems(p)]).toEqual([]);
      const read = parseTelegramHtml(p.text);
      if (!read.ok) throw new Error(read.error);
      for (const l of read.links) expect(l.startsWith('https://arb.example/')).toBe(true);
      expect(read.text).not.toMatch(LIVE_AT_MENTION);
      return;
    }
    case 'email': {
      if (m.kind !== 'email') throw new Error('expected an e-mail');
      expect(emailProblems(m, UNSUBSCRIBE)).toEqual([]);
      expect(m.html).not.toMatch(/<script/i);
      const hrefs = [...m.html.matchAll(/href="([^"]*)"/g)].map((x) => x[1].replace(/&amp;/g, '&'));
      for (const h of hrefs) expect(h.startsWith('https://arb.example/')).toBe(true);
      return;
    }
    case 'webhook':
      expect(jsonProblems(json(m))).toEqual([]);
  }
}
