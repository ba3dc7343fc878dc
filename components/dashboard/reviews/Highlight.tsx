/**
 * The inbox's search words marked in a review's text (<mark>). The server searches with PostgreSQL's
 * websearch_to_tsquery('simple', q) (server/reviews/data.ts): whole words, any case, "a phrase" as its words in a row,
 * -word excluded and OR between alternatives; so the words marked are the same whole words, and an excluded one never.
 */
import { Fragment } from 'react';
import own from './Reviews.module.css';

/** The words and phrases of a search that a matching review contains (lower case), longest first. */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  const terms: string[] = [];
  const re = /(-?)"([^"]*)"|(-?)(\S+)/g;
  for (const m of q.matchAll(re)) {
    const excluded = (m[1] ?? m[3]) === '-';
    const text = (m[2] ?? m[4] ?? '').toLowerCase();
    if (excluded || !text || text === 'or') continue;
    const words = text.split(/[^\p{L}\p{N}']+/u).filter(Boolean);
    if (words.length) terms.push(words.join(' '));
  }
  return [...new Set(terms)].sort((a, b) => b.length - a.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regular expression finding the terms as whole words (a phrase's words separated by anything not a letter). */
function termPattern(terms: string[]): RegExp | null {
  if (!terms.length) return null;
  const alts = terms.map((t) => t.split(' ').map(escape).join("[^\\p{L}\\p{N}']+"));
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alts.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
}

export default function Highlight({ text, terms }: { text: string; terms: string[] }) {
  const re = termPattern(terms);
  if (!re) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(<Fragment key={`t${last}`}>{text.slice(last, at)}</Fragment>);
    parts.push(
      <mark key={`m${at}`} className={own.mark}>
        {m[0]}
      </mark>,
    );
    last = at + m[0].length;
  }
  if (last < text.length) parts.push(<Fragment key={`t${last}`}>{text.slice(last)}</Fragment>);
  return <>{parts}</>;
}
