/**
 * An answer's text with its citations: each `[n]` that names a cited review is a button opening that review; a
 * marker without a citation (yet: while streaming, the number may arrive before its review) stays plain text. The
 * text is shown as text, never as HTML or links: what a model writes cannot put a link on the page.
 *
 * Lines are blocks: consecutive lines starting with "- ", "* " or "• " are a list (`<ul>`), with "1. " or "1) " a
 * numbered list (`<ol>`), any other line a paragraph; so a computed answer's figures per version or per week, and a
 * model's bullet points, read as lists to screen readers too.
 */
import { Fragment } from 'react';
import type { AskCitation } from '@/shared/askArb';
import styles from './AskChat.module.css';

const MARKER = /\[(\d{1,3})\]/g;
const BULLET = /^\s*[-*•]\s+/;
const NUMBERED = /^\s*\d{1,3}[.)]\s+/;

export function citationLabel(c: AskCitation): string {
  return `Review ${c.n}: ${c.rating} star${c.rating === 1 ? '' : 's'}${c.author ? ` by ${c.author}` : ''}`;
}

type Block = { kind: 'p'; text: string } | { kind: 'ul' | 'ol'; items: string[] };

/** The text's lines as paragraphs and lists (pure). */
export function answerBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const line of text.split('\n')) {
    const kind = BULLET.test(line) ? 'ul' : NUMBERED.test(line) ? 'ol' : 'p';
    if (kind === 'p') {
      if (line.trim()) blocks.push({ kind, text: line });
      continue;
    }
    const item = line.replace(kind === 'ul' ? BULLET : NUMBERED, '');
    const last = blocks[blocks.length - 1];
    if (last && last.kind === kind) last.items.push(item);
    else blocks.push({ kind, items: [item] });
  }
  return blocks;
}

function Cited({ text, byNumber, onCite }: { text: string; byNumber: Map<number, AskCitation>; onCite: (c: AskCitation) => void }) {
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
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          <Fragment key={i}>{p}</Fragment>
        ) : (
          <button key={i} type="button" className={styles.cite} aria-label={citationLabel(p)} onClick={() => onCite(p)}>
            [{p.n}]
          </button>
        ),
      )}
    </>
  );
}

export default function AnswerText({ text, citations, onCite }: { text: string; citations: AskCitation[]; onCite: (c: AskCitation) => void }) {
  const byNumber = new Map(citations.map((c) => [c.n, c]));
  return (
    <div className={styles.text}>
      {answerBlocks(text).map((b, i) =>
        b.kind === 'p' ? (
          <p key={i} className={styles.para}>
            <Cited text={b.text} byNumber={byNumber} onCite={onCite} />
          </p>
        ) : b.kind === 'ul' ? (
          <ul key={i} className={styles.list}>
            {b.items.map((item, j) => (
              <li key={j}>
                <Cited text={item} byNumber={byNumber} onCite={onCite} />
              </li>
            ))}
          </ul>
        ) : (
          <ol key={i} className={styles.list}>
            {b.items.map((item, j) => (
              <li key={j}>
                <Cited text={item} byNumber={byNumber} onCite={onCite} />
              </li>
            ))}
          </ol>
        ),
      )}
    </div>
  );
}
