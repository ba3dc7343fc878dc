// The pure parts of asking ARB in Slack: the answer as a Slack message (hostile text in the question, the answer and the
// cited reviews can neither mention, link nor open code; each [n] links to its review in ARB), the help and apps
// texts, and reading what was typed after `/arb` or the app's mention.
import { describe, expect, test } from 'vitest';
import type { AskCitation } from '@/shared/askArb';
import { SLACK_ANSWER_MAX_CHARS, SLACK_SOURCES_MAX, reviewUrl, slackAnswer, slackAppsList, slackHelp, slackText } from '@/server/slack/askMessage';
import { readAsked } from '@/server/slack/ask';
import { withoutLeadingMentions } from '@/server/slack/askEvents';

const APP = 'https://arb.example';
const citation = (n: number, id: string, over: Partial<AskCitation> = {}): AskCitation => ({
  n,
  id,
  app_store: 'google_play_store',
  app_id: 'com.example',
  author: 'Maya',
  rating: 2,
  title: 'Login broken',
  body: 'The login fails.',
  date: '2026-12-01T10:00:00Z',
  country: 'us',
  version: '1.0',
  language: 'en',
  permalink: null,
  ...over,
});

describe('slackText', () => {
  test('nothing written by others formats, mentions or links', () => {
    expect(slackText('<!channel> & <@U0BOSS> <https://evil.example|click> `rm -rf` ```block```')).toBe(
      '&lt;!channel&gt; &amp; &lt;@U0BOSS&gt; &lt;https://evil.example|click&gt; ˋrm -rfˋ ˋˋˋblockˋˋˋ',
    );
    expect(slackText('tell @channel, @HERE and @everyone; mail a@herebefore.com')).toBe('tell @\u200bchannel, @\u200bHERE and @\u200beveryone; mail a@herebefore.com');
    // Already-escaped text is escaped again: an entity a review wrote stays visible as written.
    expect(slackText('&lt;')).toBe('&amp;lt;');
  });
});

describe('slackAnswer', () => {
  test('each cited [n] links to its review in ARB; a number without a citation stays text', () => {
    const text = slackAnswer({ question: 'What about login?', content: 'It fails [1], often [2] [9].', citations: [citation(1, '41'), citation(2, '42')], appUrl: APP, askerId: 'U0ASKER1' });
    const [asked, quoted, blank, body] = text.split('\n');
    expect(asked).toBe('<@U0ASKER1> asked:');
    expect(quoted).toBe('>What about login?');
    expect(blank).toBe('');
    expect(body).toBe(`It fails <${APP}/dashboard/reviews?review=41|[1]>, often <${APP}/dashboard/reviews?review=42|[2]> [9].`);
    expect(text).toContain(`\n*Reviews cited*\n<${APP}/dashboard/reviews?review=41|[1]> ★★☆☆☆ Login broken — The login fails.`);
  });

  test('hostile question, answer and reviews: escaped before ARB adds its links', () => {
    const text = slackAnswer({
      question: 'ignore <!here> `x`\n> fake quote',
      content: 'Users say "<https://evil.example|refund>" & @channel `boom` [1]',
      citations: [citation(1, '7', { title: 'Scam <@U0BOSS>', body: 'See ``` and <!everyone> | > end' })],
      appUrl: APP,
      askerId: 'U0ASKER1',
    });
    expect(text).not.toMatch(/<!|<@U0BOSS|<https:\/\/evil|`/);
    expect(text).toContain('>ignore &lt;!here&gt; ˋxˋ &gt; fake quote');
    expect(text).toContain(`Users say "&lt;https://evil.example|refund&gt;" &amp; @\u200bchannel ˋboomˋ <${APP}/dashboard/reviews?review=7|[1]>`);
    expect(text).toContain('Scam &lt;@U0BOSS&gt; — See ˋˋˋ and &lt;!everyone&gt; | &gt; end');
    // The only links are ARB's own.
    expect([...text.matchAll(/<([^>]*)>/g)].map((m) => m[1])).toEqual(['@U0ASKER1', `${APP}/dashboard/reviews?review=7|[1]`, `${APP}/dashboard/reviews?review=7|[1]`]);
  });

  test('an asker id that is not a Slack id is not put in a mention; the model’s **bold** is Slack’s *bold*', () => {
    const text = slackAnswer({ question: 'q', content: 'It is **mostly** fine.', citations: [], appUrl: APP, askerId: 'U1> <!channel' });
    expect(text.split('\n')[0]).toBe('The question:');
    expect(text).toContain('It is *mostly* fine.');
    expect(text).not.toContain('Reviews cited');
  });

  test('a long answer is cut at a word; sources beyond the first few are counted, not listed', () => {
    const long = `${'word '.repeat(SLACK_ANSWER_MAX_CHARS)}[1]`;
    const citations = Array.from({ length: SLACK_SOURCES_MAX + 3 }, (_, i) => citation(i + 1, String(100 + i)));
    const text = slackAnswer({ question: 'q', content: long, citations, appUrl: APP });
    const body = text.split('\n')[3];
    expect(body.length).toBeLessThanOrEqual(SLACK_ANSWER_MAX_CHARS + 1);
    expect(body.endsWith('word…')).toBe(true);
    expect(text.match(/★/g)?.length).toBeGreaterThan(0);
    expect(text.split('\n').filter((l) => l.startsWith(`<${APP}`))).toHaveLength(SLACK_SOURCES_MAX);
    expect(text).toContain('…and 3 more, linked in the answer.');
  });

  test('review ids go into the link encoded', () => {
    expect(reviewUrl('https://arb.example/', '12|<x>')).toBe('https://arb.example/dashboard/reviews?review=12%7C%3Cx%3E');
  });
});

describe('help and apps', () => {
  test('the help names the command it was asked with; the apps list escapes titles', () => {
    expect(slackHelp('/reviews')).toContain('`/reviews apps`');
    expect(slackHelp('@ARB')).toContain('`@ARB <question>`');
    expect(slackAppsList([{ title: 'Fun <@U1> & games', appStore: 'apple_app_store' }], 'channel', 'Acme')).toBe(
      'Questions asked in this channel are about the apps whose reviews ARB posts here (Acme):\n• Fun &lt;@U1&gt; &amp; games (App Store)',
    );
    expect(slackAppsList([{ title: 'Garden', appStore: 'google_play_store' }], 'dm', 'Acme')).toBe('Questions asked here are about all the apps of Acme:\n• Garden (Google Play)');
  });
});

describe('reading what was typed', () => {
  test('help, apps, a question; the mention of ARB at the start is not part of it', () => {
    expect(readAsked('')).toEqual({ kind: 'help' });
    expect(readAsked('  HELP ')).toEqual({ kind: 'help' });
    expect(readAsked('apps')).toEqual({ kind: 'apps' });
    expect(readAsked('apps in Germany?')).toEqual({ kind: 'question', question: 'apps in Germany?' });
    expect(withoutLeadingMentions('<@U0ARB> how many 1-star reviews?')).toBe('how many 1-star reviews?');
    expect(withoutLeadingMentions('<@U0ARB|arb>, <@U0ARB>: help')).toBe('help');
    expect(withoutLeadingMentions('ask <@U0ARB> later')).toBe('ask <@U0ARB> later');
  });
});
