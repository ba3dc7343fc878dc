/**
 * /dashboard/replies — Replies → Awaiting approval: the drafts rules wrote (server/replies/ruleReplies.ts), each with
 * its review, the rule, and a text box counting the store's limit; Approve sends the text as it stands (edited or not)
 * through the store, Reject keeps it unsent. Every member may decide (approving is replying). Apps whose automatic
 * replies are paused (the store refused the credentials or the quota) are listed above, with the reason.
 */
import { useId, useState } from 'react';
import toast from '@/lib/hotToast';
import type { ListedReply } from '@/lib/api/replies';
import { useApproveReply, useRejectReply, useRepliesInState, useReplyPauses } from '@/lib/queries/replies';
import { replyLength } from '@/shared/replies';
import { dateTime, errorToast, Skeleton } from '../common';
import styles from '../Dashboard.module.css';

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(Math.max(0, 5 - n));

function Draft({ reply }: { reply: ListedReply }) {
  const id = useId();
  const [text, setText] = useState(reply.text);
  const approve = useApproveReply({
    onSuccess: (r) => toast.success(r.state === 'sending' ? 'Approved: the store is busy, the reply is sent shortly' : 'Approved and sent to the store'),
    onError: errorToast,
  });
  const reject = useRejectReply({ onSuccess: () => toast.success('Rejected: it will not be sent'), onError: errorToast });
  const n = replyLength(text);
  const over = n > reply.max_characters;
  const busy = approve.isPending || reject.isPending;
  const r = reply.review;
  return (
    <li className={styles.section} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className={styles.sectionTitle}>
        <span aria-label={`${r.content_rating} of 5 stars`}>{stars(r.content_rating)}</span> {r.content_title ?? 'A review'} · {r.app_title}
      </h3>
      <p className={styles.muted}>
        {r.author_display_name} · {dateTime(r.content_updated_at)} · drafted by rule “{reply.rule?.name ?? '—'}”{reply.drafted_by === 'model' ? ' with the language model' : ' from its template'}
      </p>
      <blockquote>{r.content_body || 'No written review, rating only.'}</blockquote>
      <label htmlFor={`${id}-text`}>Reply (public, under your developer name)</label>
      <textarea id={`${id}-text`} className={styles.input} rows={4} value={text} onChange={(e) => setText(e.target.value)} aria-describedby={`${id}-count`} aria-invalid={over} />
      <p id={`${id}-count`} className={styles.muted} aria-live="polite">
        {n.toLocaleString('en-US')} of {reply.max_characters.toLocaleString('en-US')} characters{over ? ` — shorten it by ${(n - reply.max_characters).toLocaleString('en-US')}` : ''}
      </p>
      <div className={styles.row}>
        <button type="button" className={styles.button} disabled={busy || over || !text.trim()} onClick={() => approve.mutate({ id: reply.id, ...(text.trim() !== reply.text.trim() ? { text } : {}) })}>
          {text.trim() !== reply.text.trim() ? 'Approve edited reply' : 'Approve'}
        </button>
        <button type="button" className={styles.danger} disabled={busy} onClick={() => reject.mutate(reply.id)}>
          Reject
        </button>
      </div>
    </li>
  );
}

export default function RepliesPage() {
  const drafts = useRepliesInState('awaiting_approval');
  const pauses = useReplyPauses();
  return (
    <>
      <h1 className={styles.title}>Replies awaiting approval</h1>
      {pauses.data && pauses.data.length > 0 && (
        <section className={styles.section} aria-label="Paused automatic replies">
          <h2 className={styles.sectionTitle}>Paused automatic replies</h2>
          <ul>
            {pauses.data.map((p) => (
              <li key={p.app_key}>
                <strong>{p.app_title ?? p.app_key}</strong> since {dateTime(p.since)}
                {p.until ? `, until ${dateTime(p.until)}` : ''}: {p.reason}
              </li>
            ))}
          </ul>
        </section>
      )}
      {drafts.isPending ? (
        <Skeleton label="Loading the drafts" />
      ) : drafts.isError ? (
        <p role="alert">The drafts could not be loaded. Reload the page to try again.</p>
      ) : drafts.data.length === 0 ? (
        <p className={styles.muted}>No reply awaits approval. Rules with a reply action in approval mode put their drafts here.</p>
      ) : (
        <ul className={styles.list} aria-label="Drafts awaiting approval">
          {drafts.data.map((r) => (
            <Draft key={r.id} reply={r} />
          ))}
        </ul>
      )}
    </>
  );
}
