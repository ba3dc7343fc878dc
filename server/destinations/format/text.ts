/**
 * Text helpers every formatter shares: stars, cleaning, grapheme-safe truncation, and the per-platform escaping of
 * review text. Review text is hostile (chat-platforms.md): whatever a reviewer typed must never ping anyone, become a
 * link with a disguised target, or break the message layout. Pure functions, no Node APIs.
 */
import type { AppStore } from '../../sources/types';

export const ELLIPSIS = '…';
export const ZERO_WIDTH_SPACE = '\u200B';

/** How a platform counts its limits: UTF-16 code units (≥ code points, so safe for "characters") or UTF-8 bytes. */
export type Unit = 'chars' | 'bytes';

export function stars(rating: number): string {
  const n = Math.min(5, Math.max(0, Math.round(rating)));
  return '★'.repeat(n) + '☆'.repeat(5 - n);
}

export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export function measure(s: string, unit: Unit = 'chars'): number {
  return unit === 'bytes' ? utf8Length(s) : s.length;
}

/**
 * Control characters and the Unicode bidi embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069) are
 * removed: an RLO in a review would otherwise flip the text that follows it — our labels and links included.
 * Arabic or Hebrew text itself needs none of them to display right. Line breaks are normalised, runs of blank lines
 * shortened.
 */
export function cleanText(s: string | null | undefined): string {
  if (!s) return '';
  return s
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF]/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cleaned and on one line: names, titles, header and subject text. */
export function singleLine(s: string | null | undefined): string {
  return cleanText(s).replace(/\s*\n\s*/g, ' ').replace(/[ \t]{2,}/g, ' ');
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Cuts `text` to at most `max` units, ending with an ellipsis, and only between graphemes: never inside a surrogate
 * pair, an emoji ZWJ sequence, a flag or a letter with its combining marks.
 */
export function truncate(text: string, max: number, unit: Unit = 'chars'): string {
  if (measure(text, unit) <= max) return text;
  const budget = max - measure(ELLIPSIS, unit);
  if (budget < 0) return '';
  // The code-unit index of the first unit that no longer fits.
  let limit = budget;
  if (unit === 'bytes') {
    let used = 0;
    limit = 0;
    while (limit < text.length) {
      const c = text.charCodeAt(limit);
      const pair = (c & 0xfc00) === 0xd800 && (text.charCodeAt(limit + 1) & 0xfc00) === 0xdc00;
      const size = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      if (used + size > budget) break;
      used += size;
      limit += pair ? 2 : 1;
    }
  }
  // The grapheme straddling the limit starts at the last boundary that fits. `containing` asks ICU about that one
  // spot instead of walking every grapheme before it, which costs microseconds per grapheme on long reviews.
  let end = segmenter.segment(text).containing(limit)?.index ?? limit;
  if (end === 0) {
    // One grapheme larger than the whole budget (a letter drowned in combining marks): cut it between code points.
    end = limit;
    if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  }
  return text.slice(0, end).trimEnd() + ELLIPSIS;
}

/**
 * The longest rendering of `raw` (truncated, then passed through `render`, usually an escaper) that fits in `max`.
 * Escaping makes text longer, so the raw text is shortened until the rendered result fits.
 */
export function fitRendered(
  raw: string,
  max: number,
  render: (s: string) => string,
  size: (rendered: string) => number = (s) => s.length,
): string {
  const rendered = render(raw);
  const whole = size(rendered);
  if (whole <= max) return rendered;
  // Start from the raw length the escaping ratio predicts, so a long text fits in one or two tries.
  let limit = Math.min(max, Math.floor((raw.length * max) / whole));
  for (let attempt = 0; attempt < 12 && limit > 0; attempt++) {
    const out = render(truncate(raw, limit));
    const used = size(out);
    if (used <= max) return out;
    limit = Math.min(limit - 1, Math.floor((limit * max) / used));
  }
  return '';
}

// ---------------------------------------------------------------------------------------------------------------
// Per-platform escaping

/** '@' followed by a zero-width space: still reads as '@channel', but no platform parses it as a mention. */
export function breakMentions(s: string): string {
  return s.replace(/@/g, `@${ZERO_WIDTH_SPACE}`);
}

/**
 * For fields a platform shows as plain text (author names, footers, fallbacks): nothing is parsed there today, but a
 * zero-width space after '@' and '<' keeps mention and <!channel>/<url|text> syntax inert should that ever change.
 */
export function breakPlain(s: string): string {
  return s.replace(/([@<])/g, `$1${ZERO_WIDTH_SPACE}`);
}

/**
 * Slack mrkdwn. Slack's documented escaping is & < > and nothing else; it alone neutralises <!channel>, <!here>,
 * <@U…> and <url|text>. Slack has no escape for its formatting characters, so * _ ~ ` are swapped for look-alikes
 * (∗ ˍ ∼ ˋ) to keep review text from turning bold, italic, struck or into code blocks. '@' is broken too, in case a
 * workspace's legacy `link_names` setting would turn a bare @here into a mention.
 */
export function escapeSlack(s: string): string {
  return escapeSlackName(s).replace(/_/g, 'ˍ');
}

/**
 * Slack mrkdwn for a name (the review's author): Slack's own escaping (& < >, mentions broken) with its underscores
 * kept as they are — "john_doe_99" stays copyable and searchable (Slack's rule is to escape & < > and nothing
 * else; neutralising _ is optional). An underscore inside a word never formats in Slack; * ~ ` still become look-alikes.
 */
export function escapeSlackName(s: string): string {
  return breakMentions(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\*/g, '∗')
    .replace(/~/g, '∼')
    .replace(/`/g, 'ˋ');
}

/** Slack's escaping for text that is not mrkdwn but is still scanned for <!channel> (the notification `text`). */
export function escapeSlackControl(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * CommonMark-style backslash escaping (Discord, Mattermost, Teams, Webex): inline syntax everywhere, block syntax
 * (headings, quotes, list markers) at the start of a line.
 */
export function escapeMarkdown(s: string): string {
  return s
    .replace(/[\\`*_~|[\]()<>!]/g, '\\$&')
    .replace(/^([ \t]*)([#+\-=])/gm, '$1\\$2')
    .replace(/^([ \t]*\d+)([.)])(?=\s|$)/gm, '$1\\$2');
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** For e-mail headers: no CR/LF (header injection), no control characters. */
export function headerSafe(s: string): string {
  return singleLine(s).replace(/[\r\n]/g, ' ');
}

/** Only http(s) links leave ARB, normalised by the URL parser (so no spaces, quotes or angle brackets survive). */
export function safeLink(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    if (u.username || u.password) return null;
    return u.href.replace(/\|/g, '%7C');
  } catch {
    return null;
  }
}

/** A safe link's URL as the target of a Markdown link: parentheses would end the target early. */
export function markdownUrl(url: string): string {
  return url.replace(/\(/g, '%28').replace(/\)/g, '%29');
}

// ---------------------------------------------------------------------------------------------------------------
// Labels

export function storeName(store: AppStore): string {
  return store === 'apple_app_store' ? 'App Store' : 'Google Play';
}

export function flagEmoji(countryCode: string): string {
  if (!/^[a-z]{2}$/i.test(countryCode)) return '';
  return String.fromCodePoint(...[...countryCode.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

export function countryName(countryCode: string): string {
  try {
    return regionNames.of(countryCode.toUpperCase()) ?? countryCode.toUpperCase();
  } catch {
    return countryCode.toUpperCase();
  }
}

// Intl.DisplayNames looks names up in ICU's tables on every call — a third of a chat message's formatting time. There
// are a few hundred region codes, so each label is worked out once per process.
const countryLabels = new Map<string, string>();

/** '🇺🇸 United States' */
export function countryLabel(countryCode: string | null | undefined): string | null {
  if (!countryCode || !/^[a-z]{2}$/i.test(countryCode)) return null;
  let label = countryLabels.get(countryCode);
  if (label === undefined) {
    label = `${flagEmoji(countryCode)} ${countryName(countryCode)}`;
    countryLabels.set(countryCode, label); // bounded: two letters, 52² keys at most
  }
  return label;
}

const languageNamesSeen = new Map<string, string>();

export function languageName(code: string | null | undefined): string | null {
  if (!code) return null;
  let name = languageNamesSeen.get(code);
  if (name === undefined) {
    try {
      name = languageNames.of(code.replace('_', '-')) ?? code;
    } catch {
      name = code;
    }
    // Codes come from the stores (a few hundred in practice); the cap keeps odd input from growing the map for ever.
    if (languageNamesSeen.size < 1000) languageNamesSeen.set(code, name);
  }
  return name;
}
