/**
 * How the Telegram Bot API reads `parse_mode: 'HTML'` text (core.telegram.org/bots/api#html-style), strictly: only
 * its tags (b, strong, i, em, u, ins, s, strike, del, span class="tg-spoiler", tg-spoiler, a href, tg-emoji, code,
 * pre, blockquote [expandable]), properly nested; every '<' opens one of them; every '&' starts &lt; &gt; &amp; &quot;
 * or a numeric entity. What it answers is the text a reader sees (entities decoded, tags gone), or the error Telegram
 * gives: "Bad Request: can't parse entities: …". The message limit (4,096) applies to that visible text.
 */
const TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'tg-emoji', 'code', 'pre', 'blockquote']);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export type TelegramHtml = { ok: true; text: string; links: string[] } | { ok: false; error: string };

export function parseTelegramHtml(html: string): TelegramHtml {
  const open: string[] = [];
  const links: string[] = [];
  let text = '';
  let i = 0;
  const fail = (why: string): TelegramHtml => ({ ok: false, error: `Bad Request: can't parse entities: ${why} at byte offset ${Buffer.byteLength(html.slice(0, i))}` });
  const decode = (s: string) => s.replace(/&(lt|gt|amp|quot);|&#(\d+);|&#x([0-9a-f]+);/gi, (_, n: string, d: string, h: string) => (n ? NAMED[n.toLowerCase()] : String.fromCodePoint(d ? Number(d) : parseInt(h, 16))));
  while (i < html.length) {
    const c = html[i];
    if (c === '&') {
      const m = /^&(?:(lt|gt|amp|quot)|#\d{1,7}|#x[0-9a-f]{1,6});/i.exec(html.slice(i, i + 12));
      if (!m) return fail('Unsupported HTML entity or unescaped "&"');
      text += decode(m[0]);
      i += m[0].length;
      continue;
    }
    if (c === '>') return fail('Unexpected ">"; escape it as &gt;');
    if (c !== '<') {
      text += c;
      i++;
      continue;
    }
    const end = html.indexOf('>', i);
    if (end < 0) return fail('Unclosed start tag');
    const tag = html.slice(i + 1, end);
    const closing = tag.startsWith('/');
    const m = /^\/?([a-z][a-z-]*)(?:\s+([\s\S]*))?$/i.exec(tag);
    if (!m) return fail(`Unsupported start tag "${tag.slice(0, 20)}"`);
    const name = m[1].toLowerCase();
    if (!TAGS.has(name)) return fail(`Unsupported ${closing ? 'end' : 'start'} tag "${name}"`);
    if (closing) {
      if (open.pop() !== name) return fail(`Unmatched end tag "${name}"`);
    } else {
      const attrs = m[2]?.trim() ?? '';
      if (name === 'a') {
        const href = /^href\s*=\s*"([^"]*)"$/.exec(attrs);
        if (!href) return fail('Tag "a" needs an href="…" attribute');
        links.push(decode(href[1]));
      } else if (name === 'blockquote') {
        if (attrs && attrs !== 'expandable') return fail(`Unsupported attribute "${attrs}" of tag "blockquote"`);
      } else if (name === 'span') {
        if (attrs !== 'class="tg-spoiler"') return fail('Tag "span" must have class "tg-spoiler"');
      } else if (attrs && name !== 'tg-emoji' && name !== 'code' && name !== 'pre') {
        return fail(`Unsupported attribute of tag "${name}"`);
      }
      open.push(name);
    }
    i = end + 1;
  }
  if (open.length) return fail(`Can't find end tag corresponding to start tag "${open[open.length - 1]}"`);
  return { ok: true, text, links };
}
