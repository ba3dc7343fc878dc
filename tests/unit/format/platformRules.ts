/**
 * The platforms' documented payload rules, written as checkers that list every violation (an empty list = valid).
 * They measure the way the platforms do — Discord counts characters (code points), Teams and Webex bytes — so a
 * formatter that passes here does not earn a 400 there. Sources: chat-platforms.md, Google Chat's and Telegram's docs.
 */
import { parseTelegramHtml } from '../../fakes/telegramHtml';

const cp = (s: string) => [...s].length;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON payload must survive a round trip and contain no lone surrogate (a split emoji). */
export function jsonProblems(body: unknown): string[] {
  const text = JSON.stringify(body);
  const problems: string[] = [];
  if (JSON.stringify(JSON.parse(text)) !== text) problems.push('JSON does not round-trip');
  if (/\\ud[89a-f][0-9a-f]{2}/i.test(text)) problems.push('lone surrogate (a split character) in the payload');
  return problems;
}

export function slackProblems(body: unknown): string[] {
  const p: string[] = [];
  if (!isObj(body)) return ['payload is not an object'];
  if (typeof body.text !== 'string' || !body.text) p.push('text (notification fallback) missing');
  else if (cp(body.text) > 3000) p.push('text over 3000');
  const blocks = body.blocks as Json[];
  if (!Array.isArray(blocks) || blocks.length === 0) return [...p, 'no blocks'];
  if (blocks.length > 50) p.push('more than 50 blocks');
  const textObj = (t: unknown, max: number, where: string) => {
    if (!isObj(t) || (t.type !== 'plain_text' && t.type !== 'mrkdwn') || typeof t.text !== 'string') p.push(`${where}: bad text object`);
    else {
      if (!t.text.length) p.push(`${where}: empty text`);
      if (cp(t.text) > max) p.push(`${where}: text over ${max} (${cp(t.text)})`);
    }
  };
  blocks.forEach((b, i) => {
    if (b.type === 'header') {
      textObj(b.text, 150, `block ${i} header`);
      if (isObj(b.text) && b.text.type !== 'plain_text') p.push(`block ${i}: header must be plain_text`);
    } else if (b.type === 'section') {
      if (!b.text && !b.fields) p.push(`block ${i}: section without text or fields`);
      if (b.text) textObj(b.text, 3000, `block ${i} section`);
      if (b.fields) {
        const fields = b.fields as unknown[];
        if (fields.length > 10) p.push(`block ${i}: more than 10 fields`);
        fields.forEach((f, j) => textObj(f, 2000, `block ${i} field ${j}`));
      }
    } else if (b.type === 'context') {
      const els = b.elements as unknown[];
      if (!Array.isArray(els) || els.length === 0 || els.length > 10) p.push(`block ${i}: context needs 1–10 elements`);
      else els.forEach((e, j) => textObj(e, 3000, `block ${i} context ${j}`));
    } else if (b.type === 'actions') {
      // Block Kit: 1–25 elements; a button's text is plain_text ≤ 75, action_id ≤ 255, value ≤ 2000, url ≤ 3000.
      const els = b.elements as Json[];
      if (!Array.isArray(els) || els.length === 0 || els.length > 25) p.push(`block ${i}: actions needs 1–25 elements`);
      else
        els.forEach((e, j) => {
          if (e.type !== 'button') return p.push(`block ${i} element ${j}: not a button`);
          textObj(e.text, 75, `block ${i} button ${j}`);
          if (isObj(e.text) && e.text.type !== 'plain_text') p.push(`block ${i} button ${j}: text must be plain_text`);
          if (typeof e.action_id !== 'string' || !e.action_id || e.action_id.length > 255) p.push(`block ${i} button ${j}: action_id missing or over 255`);
          if (e.value !== undefined && (typeof e.value !== 'string' || e.value.length > 2000)) p.push(`block ${i} button ${j}: value over 2000`);
          if (e.url !== undefined && (typeof e.url !== 'string' || e.url.length > 3000 || !/^https?:\/\//.test(e.url))) p.push(`block ${i} button ${j}: bad url`);
        });
    } else if (b.type !== 'divider') p.push(`block ${i}: unexpected type ${String(b.type)}`);
  });
  return p;
}

export function teamsProblems(body: unknown): string[] {
  const p: string[] = [];
  if (!isObj(body) || body.type !== 'message') return ['not a message envelope'];
  const atts = body.attachments as Json[];
  if (!Array.isArray(atts) || atts.length !== 1) return ['needs exactly one attachment'];
  const att = atts[0];
  if (att.contentType !== 'application/vnd.microsoft.card.adaptive') p.push('wrong contentType');
  const card = att.content as Json;
  if (!isObj(card) || card.type !== 'AdaptiveCard' || card.version !== '1.4') return [...p, 'content is not an Adaptive Card 1.4'];
  const items = card.body as Json[];
  if (!Array.isArray(items) || items.length === 0) p.push('card body empty');
  for (const [i, el] of (items ?? []).entries()) {
    if (el.type === 'TextBlock') {
      if (typeof el.text !== 'string' || !el.text) p.push(`body ${i}: TextBlock without text`);
      if (el.wrap !== true) p.push(`body ${i}: TextBlock must wrap`);
    } else if (el.type === 'FactSet') {
      const facts = el.facts as Json[];
      if (!Array.isArray(facts) || facts.some((f) => typeof f.title !== 'string' || typeof f.value !== 'string')) p.push(`body ${i}: bad FactSet`);
    } else p.push(`body ${i}: unexpected element ${String(el.type)}`);
  }
  for (const a of (card.actions as Json[]) ?? []) {
    if (a.type !== 'Action.OpenUrl' || typeof a.title !== 'string' || !/^https?:\/\//.test(String(a.url))) p.push('bad action');
  }
  const size = bytes(JSON.stringify(body));
  if (size > 20_000) p.push(`payload ${size} bytes, over 20 KB`);
  return p;
}

export function mattermostProblems(body: unknown): string[] {
  const p: string[] = [];
  if (!isObj(body)) return ['payload is not an object'];
  const atts = body.attachments as Json[];
  if (!Array.isArray(atts) || atts.length === 0) return ['no attachments'];
  let total = typeof body.text === 'string' ? cp(body.text) : 0;
  for (const a of atts) {
    if (typeof a.fallback !== 'string' || !a.fallback) p.push('attachment without fallback');
    if (a.color !== undefined && !/^#[0-9a-f]{6}$/i.test(String(a.color))) p.push('color is not #rrggbb');
    for (const k of ['fallback', 'pretext', 'author_name', 'title', 'text', 'footer']) if (typeof a[k] === 'string') total += cp(a[k] as string);
    for (const f of (a.fields as Json[]) ?? []) {
      if (typeof f.title !== 'string' || typeof f.value !== 'string' || typeof f.short !== 'boolean') p.push('bad field');
      total += cp(String(f.title)) + cp(String(f.value));
    }
  }
  if (total > 16_383) p.push(`post is ${total} characters, over 16,383`);
  return p;
}

/** Discord's own limits: one over any of them is a 400. */
export function discordProblems(body: unknown): string[] {
  const p: string[] = [];
  if (!isObj(body)) return ['payload is not an object'];
  if (JSON.stringify(body.allowed_mentions) !== JSON.stringify({ parse: [] })) p.push('allowed_mentions must be { parse: [] }');
  if (typeof body.content === 'string' && cp(body.content) > 2000) p.push('content over 2000');
  const embeds = body.embeds as Json[];
  if (!Array.isArray(embeds) || embeds.length === 0 || embeds.length > 10) return [...p, 'needs 1–10 embeds'];
  let total = 0;
  for (const e of embeds) {
    const title = typeof e.title === 'string' ? e.title : '';
    const description = typeof e.description === 'string' ? e.description : '';
    if (cp(title) > 256) p.push(`title ${cp(title)} > 256`);
    if (cp(description) > 4096) p.push(`description ${cp(description)} > 4096`);
    if (e.url !== undefined && !/^https?:\/\//.test(String(e.url))) p.push('embed url not http(s)');
    if (e.timestamp !== undefined && Number.isNaN(Date.parse(String(e.timestamp)))) p.push('bad timestamp');
    const author = isObj(e.author) ? String(e.author.name) : '';
    const footer = isObj(e.footer) ? String(e.footer.text) : '';
    if (cp(author) > 256) p.push('author over 256');
    if (cp(footer) > 2048) p.push('footer over 2048');
    const fields = (e.fields as Json[]) ?? [];
    if (fields.length > 25) p.push('more than 25 fields');
    for (const f of fields) {
      const name = String(f.name ?? '');
      const value = String(f.value ?? '');
      if (!name.trim() || !value.trim()) p.push('empty field name or value');
      if (cp(name) > 256) p.push('field name over 256');
      if (cp(value) > 1024) p.push(`field value ${cp(value)} > 1024`);
      total += cp(name) + cp(value);
    }
    total += cp(title) + cp(description) + cp(author) + cp(footer);
  }
  if (total > 6000) p.push(`embeds total ${total} > 6000`);
  return p;
}

export function webexProblems(body: unknown): string[] {
  if (!isObj(body) || typeof body.markdown !== 'string' || !body.markdown) return ['markdown missing'];
  const size = bytes(body.markdown);
  return size > 7000 ? [`markdown ${size} bytes, over 7000`] : [];
}

export function emailProblems(m: { subject: string; text: string; html: string; headers?: Record<string, string> }, unsubscribeUrl: string): string[] {
  const p: string[] = [];
  if (!m.subject || /[\r\n]/.test(m.subject)) p.push('subject empty or multi-line');
  if (cp(m.subject) > 200) p.push('subject over 200');
  if (!m.text.includes(unsubscribeUrl)) p.push('text part has no unsubscribe link');
  if (!m.html.includes(`href="${unsubscribeUrl.replace(/&/g, '&amp;')}"`)) p.push('html part has no unsubscribe link');
  if (m.headers?.['List-Unsubscribe'] !== `<${unsubscribeUrl}>`) p.push('List-Unsubscribe header missing');
  if (m.headers?.['List-Unsubscribe-Post'] !== 'List-Unsubscribe=One-Click') p.push('List-Unsubscribe-Post header missing');
  for (const v of Object.values(m.headers ?? {})) if (/[\r\n]/.test(v)) p.push('header with a line break');
  return p;
}

/** The tags Google Chat's card HTML knows (developers.google.com/workspace/chat/format-messages). */
const GOOGLE_CHAT_TAGS = new Set(['b', 'i', 'u', 's', 'font', 'a', 'br']);

/** Every '<' of a Google Chat card text opens one of its tags; the rest of the review's markup is entities. */
export function googleChatHtmlProblems(html: string, where: string): string[] {
  const p: string[] = [];
  const rest = html.replace(/<\/?([a-z]+)(\s[^<>]*)?>/gi, (tag, name: string) => {
    if (!GOOGLE_CHAT_TAGS.has(name.toLowerCase())) p.push(`${where}: unsupported tag ${tag}`);
    return '';
  });
  if (/[<>]/.test(rest)) p.push(`${where}: a bare < or > outside a tag`);
  if (/&(?!(amp|lt|gt|quot|#\d+);)/.test(rest)) p.push(`${where}: a bare &`);
  return p;
}

/** Google Chat: one card with fallbackText, a thread key, widgets it knows, ≤ 32,000 bytes (ARB: ≤ 30,000). */
export function googleChatProblems(body: unknown): string[] {
  const p: string[] = [];
  if (!isObj(body)) return ['payload is not an object'];
  if (typeof body.fallbackText !== 'string' || !body.fallbackText) p.push('fallbackText missing');
  else if (cp(body.fallbackText) > 300) p.push('fallbackText over 300');
  if (!isObj(body.thread) || typeof body.thread.threadKey !== 'string' || !body.thread.threadKey || cp(body.thread.threadKey) > 4000) p.push('thread.threadKey missing or over 4000');
  const cards = body.cardsV2 as Json[];
  if (!Array.isArray(cards) || cards.length !== 1) return [...p, 'needs exactly one card in cardsV2'];
  const { cardId, card } = cards[0] as { cardId: unknown; card: Json };
  if (typeof cardId !== 'string' || !cardId) p.push('cardId missing');
  if (!isObj(card)) return [...p, 'card missing'];
  const header = card.header as Json;
  if (!isObj(header) || typeof header.title !== 'string' || !header.title) p.push('card header title missing');
  const sections = card.sections as Json[];
  if (!Array.isArray(sections) || !sections.length) return [...p, 'no sections'];
  sections.forEach((s, i) => {
    if (s.header !== undefined) p.push(...googleChatHtmlProblems(String(s.header), `section ${i} header`));
    const widgets = s.widgets as Json[];
    if (!Array.isArray(widgets) || !widgets.length) return p.push(`section ${i}: no widgets`);
    widgets.forEach((w, j) => {
      const kinds = Object.keys(w);
      if (kinds.length !== 1) return p.push(`section ${i} widget ${j}: exactly one widget kind`);
      const where = `section ${i} widget ${j}`;
      const inner = w[kinds[0]] as Json;
      if (kinds[0] === 'textParagraph' || kinds[0] === 'decoratedText') {
        if (typeof inner.text !== 'string' || !inner.text) p.push(`${where}: empty text`);
        else p.push(...googleChatHtmlProblems(inner.text, where));
      } else if (kinds[0] === 'buttonList') {
        for (const b of (inner.buttons as Json[]) ?? []) {
          const url = (((b.onClick as Json)?.openLink as Json)?.url ?? '') as string;
          if (typeof b.text !== 'string' || !b.text || !/^https?:\/\//.test(url)) p.push(`${where}: bad button`);
        }
      } else if (kinds[0] !== 'divider') p.push(`${where}: unexpected widget ${kinds[0]}`);
    });
  });
  const size = bytes(JSON.stringify(body));
  if (size > 30_000) p.push(`payload ${size} bytes, over 30,000`);
  return p;
}

/** Telegram: HTML Telegram can read (tests/fakes/telegramHtml.ts), ≤ 4,096 characters even before entities are read. */
export function telegramProblems(body: unknown): string[] {
  if (!isObj(body) || typeof body.text !== 'string' || !body.text) return ['text missing'];
  const p: string[] = [];
  if (body.parse_mode !== 'HTML') p.push('parse_mode must be HTML');
  if (!isObj(body.link_preview_options) || body.link_preview_options.is_disabled !== true) p.push('link previews must be off');
  if (body.text.length > 4096) p.push(`text ${body.text.length} characters, over 4,096`);
  const read = parseTelegramHtml(body.text);
  if (!read.ok) p.push(read.error);
  return p;
}
