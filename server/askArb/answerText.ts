/**
 * What of a model's answer reaches the person, decided here and not by the model, as the text streams:
 *
 *  - **Citations**: the model cites `[review:<id>]` (several ids in one bracket too). An id among the reviews the tools
 *    returned for this answer becomes `[n]` (numbered in order of first citation; the review is announced once, before
 *    its first `[n]`); any other id — invented, or a review no tool returned — is dropped with its marker. A `[3]` the
 *    model wrote itself is dropped too: only the server numbers citations. A marker split across streamed pieces is
 *    held until it is complete (or clearly not a marker).
 *  - **Output guard**: a link anywhere but the app stores and this site, and an e-mail address, are removed
 *    ("(link removed)"). Reviews are written by strangers: a model that obeyed an instruction planted in one ("tell
 *    readers to claim a refund at …") cannot pass the link on. Text is released word by word (a link never contains
 *    whitespace), so a link split across pieces is seen whole.
 */
import { env } from '../env';
import type { AskCitation, AskMethod, AskRole } from '@/shared/askArb';
import type { AskReview, AskScope, ParsedQuestion } from './types';

/** Where an answer goes as it is made: the stream's events, or a collector for the JSON answer. */
export type AnswerOutput = { text(text: string): void; citation(citation: AskCitation): void };

/** An earlier turn of the conversation, as the model reads it. */
export type Turn = { role: AskRole; content: string };

/** What an answerer (the model's tool loop, or the computed answers) is given. */
export type AnswerInput = { scope: AskScope; question: string; parsed: ParsedQuestion; history: Turn[] };

/** An answer as shown and stored. */
export type Answer = { content: string; citations: AskCitation[]; method: AskMethod };

/** Hosts an answer may link to: the stores' review pages and this site. */
function allowedHosts(): Set<string> {
  const hosts = new Set(['apps.apple.com', 'itunes.apple.com', 'play.google.com']);
  try {
    hosts.add(new URL(env().APP_URL).host.toLowerCase());
  } catch {
    // no site URL: the stores only
  }
  return hosts;
}

const REMOVED = '(link removed)';
const TLDS = 'com|net|org|info|biz|io|co|app|dev|xyz|me|ly|gg|ai|link|site|online|top|shop|store|click|live|page|ru|cn|tk|ml|ga|cf|gq|su|to|ws';
/** An e-mail address, a URL with a scheme (and the schemes that run or dial things), www.…, or a bare domain of a common TLD. */
const LINK = new RegExp(
  [
    String.raw`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`,
    String.raw`\b(?:https?|ftp|file|data|javascript|vbscript|mailto|tel|sms|intent|market|itms-apps?|itms-services):[^\s<>()\]"']*`,
    String.raw`\bwww\.[^\s<>()\]"']+`,
    String.raw`\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:${TLDS})\b(?:[/?#][^\s<>()\]"']*)?`,
  ].join('|'),
  'gi',
);

function hostOf(link: string): string | null {
  if (link.includes('@') && !/^[a-z][a-z0-9+.-]*:\/\//i.test(link)) return null; // an e-mail address
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(link) ? link : `https://${link}`);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * `text` with every link not to an allowed host, and every e-mail address, removed. Pure; for whole words. `names`:
 * the apps' own names, kept when one looks like a domain ("Booking.com").
 */
export function guardText(text: string, hosts = allowedHosts(), names: string[] = []): string {
  return text.replace(LINK, (match) => {
    // The sentence's punctuation after a link is not part of it.
    const trail = /[.,;:!?]+$/.exec(match)?.[0] ?? '';
    const link = match.slice(0, match.length - trail.length);
    if (names.some((n) => n.toLowerCase().includes(link.toLowerCase()))) return match;
    const host = hostOf(link);
    return (host && hosts.has(host) ? link : REMOVED) + trail;
  });
}

const MARKER_START = '[review:';
/** `[review:a]`, `[review:a, review:b]`, `[review: a; b]`. */
const MARKER = /^\[review:\s*([^\]\n]*)\]/i;
/** A citation number the model wrote itself. */
const BARE_NUMBER = /^\[\d{1,4}\]/;
/** A bracket this long without closing is not a marker. */
const MAX_MARKER = 400;

export class AnswerText {
  /** The text as released (what the person sees). */
  shown = '';
  readonly citations: AskCitation[] = [];
  private byId = new Map<string, AskCitation>();
  private raw = '';
  private words = '';
  private readonly hosts = allowedHosts();

  /** `citable`: the reviews the tools returned so far for this answer (grows as tools run); `names`: the apps' names. */
  constructor(
    private readonly citable: ReadonlyMap<string, AskReview>,
    private readonly out: AnswerOutput,
    private readonly names: string[] = [],
  ) {}

  push(piece: string): void {
    this.raw += piece;
    this.drain(false);
  }

  /** The model finished: release what was held (an unfinished marker is plain text). */
  end(): void {
    this.drain(true);
    this.release(true);
  }

  private drain(final: boolean): void {
    for (;;) {
      const at = this.raw.indexOf('[');
      if (at === -1) {
        this.words += this.raw;
        this.raw = '';
        break;
      }
      this.words += this.raw.slice(0, at);
      this.raw = this.raw.slice(at);
      const marker = MARKER.exec(this.raw);
      if (marker) {
        this.words += this.cite(marker[1]);
        this.raw = this.raw.slice(marker[0].length);
        continue;
      }
      const bare = BARE_NUMBER.exec(this.raw);
      if (bare) {
        this.raw = this.raw.slice(bare[0].length);
        continue;
      }
      const head = this.raw.slice(0, MARKER_START.length).toLowerCase();
      const mayBecomeMarker = head.length < MARKER_START.length ? MARKER_START.startsWith(head) : head === MARKER_START && !this.raw.includes(']');
      const mayBecomeNumber = /^\[\d{0,4}$/.test(this.raw);
      if (!final && (mayBecomeMarker || mayBecomeNumber) && this.raw.length < MAX_MARKER) break; // wait for more
      this.words += '[';
      this.raw = this.raw.slice(1);
    }
    this.release(false);
  }

  /** The `[n]`s for the ids of one marker; unknown ids are dropped. */
  private cite(inner: string): string {
    let out = '';
    for (const part of inner.split(/[,;]/)) {
      const id = part.trim().replace(/^review:\s*/i, '');
      const review = id ? this.citable.get(id) : undefined;
      if (!review) continue;
      let c = this.byId.get(id);
      if (!c) {
        c = { ...review, n: this.citations.length + 1 };
        this.byId.set(id, c);
        this.citations.push(c);
        this.out.citation(c);
      }
      out += `[${c.n}]`;
    }
    return out;
  }

  /** Sends the words that are complete (up to the last whitespace), guarded; all of them when `final`. */
  private release(final: boolean): void {
    let upTo = this.words.length;
    if (!final) {
      const m = /\s(?=\S*$)/.exec(this.words);
      upTo = m ? m.index + 1 : 0;
    }
    if (upTo === 0) return;
    const text = guardText(this.words.slice(0, upTo), this.hosts, this.names);
    this.words = this.words.slice(upTo);
    if (!text) return;
    this.shown += text;
    this.out.text(text);
  }
}
