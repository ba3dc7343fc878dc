/**
 * An answer's text with its citations: each `[n]` that names a cited review is a button opening that review; a
 * marker without a citation (yet: while streaming, the number may arrive before its review) stays plain text. The
 * text is shown as text, never as HTML or links: what a model writes cannot put a link on the page.
 */
import { Fragment } from 'react';
import type { AskCitation } from '@/shared/askArb';
import styles from './AskChat.module.css';

const MARKER = /\[(\d{1,3})\]/g;

export function citationLabel(c: AskCitation): string {
  return `Review ${c.n}: ${c.rating} star${c.rating === 1 ? '' : 's'}${c.author ? ` by ${c.author}` : ''}`;
}

export default function AnswerText({ text, citations, onCite }: { text: string; citations: AskCitation[]; onCite: (c: AskCitation) => void }) {
  const byNumber = new Map(citations.map((c) => [c.n, c]));
  const parts: Array<string | AskCitation> = [];
  let last = 0;
  for (const m of text.matchAll(MARKER)) {
    const cited = byNumber.get(Number(m[1]));
    if (!cited) continue;
    parts.push(text.slice(last, m.index), cited);
    last = m.index! + m[0].length;
  }
  parts.push(text.slice(last));
  return (
    <div className={styles.text}>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          <Fragment key={i}>{p}</Fragment>
        ) : (
          <button key={i} type="button" className={styles.cite} aria-label={citationLabel(p)} onClick={() => onCite(p)}>
            [{p.n}]
          </button>
        ),
      )}
    </div>
  );
}
