/**
 * Ask ARB's answers as Slack messages (mrkdwn), and the help and apps texts. Pure: the answer, the apps and the site's
 * address in, text out.
 *
 * Everything but ARB's own markup is text written by others — the question by whoever asked, the answer quoting
 * reviews written by strangers — so it is escaped as Slack asks (&, <, > become entities: no `<@U…>` mention,
 * `<!channel>` or `<url|label>` link can be made from it), `@channel`/`@here`/`@everyone` are broken with a zero-width
 * space (some Slack clients still notify on them in plain text), and backticks become a look-alike so a review cannot
 * open a code block that swallows the rest of the message and its links. Then, and only then, each `[n]` the answer
 * cites becomes a link to the review in ARB's inbox (`/dashboard/reviews?review=<id>`).
 */
import type { AskCitation } from '../askArb/types';

/** What Slack shows of one message comfortably; Slack cuts at 40,000, but a long answer is better read in ARB. */
export const SLACK_ANSWER_MAX_CHARS = 3_000;
/** The sources listed under an answer; the rest stay linked in the text. */
export const SLACK_SOURCES_MAX = 8;
const SOURCE_EXCERPT_CHARS = 110;

const ZWSP = '\u200b';
/** U+02CB MODIFIER LETTER GRAVE ACCENT: looks like a backtick, formats nothing. */
const NOT_A_BACKTICK = '\u02cb';

/** Text written by someone else, safe to put in a Slack message: nothing in it formats, mentions or links. */
export function slackText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(channel|here|everyone)\b/gi, `@${ZWSP}$1`)
    .replace(/`/g, NOT_A_BACKTICK);
}

/** A link in Slack's `<url|label>` form; the label is escaped, and `|` or `>` in it could not end the link early. */
const slackLink = (url: string, label: string) => `<${url}|${slackText(label).replace(/\|/g, '∣')}>`;

export const reviewUrl = (appUrl: string, reviewId: string) => `${appUrl.replace(/\/+$/, '')}/dashboard/reviews?review=${encodeURIComponent(reviewId)}`;

/** `text` cut at a word near `max` characters, with an ellipsis when cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf(' ', max);
  return `${text.slice(0, at > max * 0.6 ? at : max).trimEnd()}…`;
}

const stars = (rating: number) => '★'.repeat(Math.max(0, Math.min(5, rating))) + '☆'.repeat(Math.max(0, 5 - Math.max(0, Math.min(5, rating))));

export type SlackAnswerInput = {
  question: string;
  /** The answer as Ask ARB stores it: text with `[n]`, and the reviews those numbers cite. */
  content: string;
  citations: AskCitation[];
  appUrl: string;
  /** The Slack user who asked (from Slack's signed request): mentioned so the channel sees whose question it was. */
  askerId?: string;
};

/** The answer as a Slack message: who asked what, the answer with its `[n]` linked to the reviews, and the sources. */
export function slackAnswer(input: SlackAnswerInput): string {
  const byN = new Map(input.citations.map((c) => [c.n, c]));
  // Markdown bold from a model (**x**) is Slack's *x*; the asterisks are not escaped, so this stays after escaping.
  const body = slackText(cut(input.content.trim(), SLACK_ANSWER_MAX_CHARS))
    .replace(/\*\*([^*\n]+)\*\*/g, '*$1*')
    .replace(/\[(\d{1,4})\]/g, (marker, n: string) => {
      const c = byN.get(Number(n));
      return c ? `<${reviewUrl(input.appUrl, c.id)}|[${n}]>` : marker;
    });
  const asker = input.askerId && /^[UW][A-Z0-9]{2,30}$/.test(input.askerId) ? `<@${input.askerId}> asked:` : 'The question:';
  // The question as a quote (ARB's own `>`: the question's are escaped), on one line.
  const lines = [asker, `>${slackText(cut(input.question.trim().replace(/\s+/g, ' '), 300))}`, '', body];
  const sources = input.citations.slice(0, SLACK_SOURCES_MAX);
  if (sources.length) {
    lines.push('', '*Reviews cited*');
    for (const c of sources) {
      const words = [c.title, c.body].filter(Boolean).join(' — ').replace(/\s+/g, ' ');
      lines.push(`${slackLink(reviewUrl(input.appUrl, c.id), `[${c.n}]`)} ${stars(c.rating)} ${slackText(cut(words, SOURCE_EXCERPT_CHARS))}`);
    }
    if (input.citations.length > sources.length) lines.push(`…and ${input.citations.length - sources.length} more, linked in the answer.`);
  }
  return lines.join('\n');
}

const storeName = (store: string) => (store === 'apple_app_store' ? 'App Store' : 'Google Play');

/** `/arb apps`: the apps a question asked here reads. */
export function slackAppsList(apps: Array<{ title: string; appStore: string }>, where: 'channel' | 'dm', orgName: string): string {
  const intro = where === 'channel' ? `Questions asked in this channel are about the apps whose reviews ARB posts here (${slackText(orgName)}):` : `Questions asked here are about all the apps of ${slackText(orgName)}:`;
  return [intro, ...apps.map((a) => `• ${slackText(a.title)} (${storeName(a.appStore)})`)].join('\n');
}

/** `/arb help` (and `/arb` alone). `command`: how the asker calls ARB here (the slash command's name, or the app's mention). */
export function slackHelp(command: string): string {
  const c = slackText(command);
  return [
    '*Ask ARB about your app reviews*',
    `• \`${c} <question>\`: for example \`${c} what do people say about the login since the last version?\` The answer comes with the reviews it rests on: each [n] opens that review in ARB.`,
    `• \`${c} apps\`: the apps a question asked here is about.`,
    `• \`${c} help\`: this message.`,
    'In a channel ARB posts reviews to, a question is about that channel’s apps, and anyone in the channel may ask. In a direct message with ARB, it is about all your organisation’s apps, once your Slack account is linked to ARB.',
    'Each question counts towards your ARB plan’s Ask ARB questions.',
  ].join('\n');
}
