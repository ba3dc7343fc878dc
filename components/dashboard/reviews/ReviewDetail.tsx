/**
 * The current review of the inbox, beside the list: the whole review (its translation, its earlier versions when it was
 * edited), the reply and its composer, its place in the queue (status, assignee, tags), its internal notes (author and
 * time; never sent to a store) and its help-desk ticket. "r" opens the composer here and "t" the tag picker.
 */
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useEffect, useId, useRef, useState } from 'react';
import toast from '@/lib/hotToast';
import type { OrgApp } from '@/lib/api/orgApps';
import type { InboxReview } from '@/lib/api/reviews';
import type { Tag } from '@/lib/api/workflow';
import type { OrgMember } from '@/lib/api/org';
import { useAddNote, useChangeReview, useReviewDetail } from '@/lib/queries/workflow';
import { REPLY_STATE_WORDS } from '@/shared/replies';
import { storefrontName } from '@/shared/storefronts';
import { NOTE_MAX_CHARS, WORKFLOW_STATUSES, type WorkflowStatus } from '@/shared/workflow';
import { date, dateTime, errorToast, Skeleton } from '../common';
import { ReviewTicket } from '../integrations/TicketLink';
import Highlight from './Highlight';
import { assigneeIdOf, statusLabel, statusOf, type QueueReview } from './queue';
import { Stars } from './reviewText';
import Translation from './Translation';
import styles from '../Dashboard.module.css';
import own from './Reviews.module.css';

// The composer (and its templates query) loads when someone first opens it.
const ReplyComposer = dynamic(() => import('./ReplyComposer'), { ssr: false, loading: () => <Skeleton rows={2} label="Loading the reply form" /> });

/** The reply sent through ARB: its state, who sent it and when, and whether the review changed since. */
function ReplyStatus({ reply }: { reply: NonNullable<InboxReview['reply']> }) {
  return (
    <>
      <span className={own.badge} data-state={reply.state}>
        {REPLY_STATE_WORDS[reply.state]}
      </span>
      {reply.edited_after_reply ? <span className={own.edited}>Edited after reply</span> : null}
      <span className={own.app}>
        {reply.by ? `${reply.by} · ` : ''}
        <time dateTime={reply.at}>{dateTime(reply.at)}</time>
      </span>
    </>
  );
}

const NOT_SENT: ReadonlySet<string> = new Set(['draft', 'awaiting_approval', 'rejected']);

export const memberName = (m: Pick<OrgMember, 'email' | 'name'>) => m.name || m.email;
/** The members as an assignee picker lists them, the signed-in one marked "(you)". */
export const memberOptions = (members: OrgMember[]) => members.map((m) => ({ value: m.id, label: `${memberName(m)}${m.you ? ' (you)' : ''}` }));

/** Status, assignee and tags of the review, each changed at once (PATCH v1/org/reviews/{id}). */
function Workflow({ review, tags, members, tagRequest }: { review: QueueReview; tags: Tag[]; members: OrgMember[]; tagRequest: number }) {
  const id = useId();
  const tagPicker = useRef<HTMLSelectElement>(null);
  const change = useChangeReview({ onError: errorToast });
  const status = statusOf(review);
  const assignee = assigneeIdOf(review);
  const own_ = review.tags ?? [];
  const addable = tags.filter((t) => !own_.some((o) => o.id === t.id));
  // "t" pressed while this review is shown (not an earlier press, for another review).
  const shownAt = useRef(tagRequest);
  useEffect(() => {
    if (tagRequest !== shownAt.current) tagPicker.current?.focus();
  }, [tagRequest]);
  return (
    <div className={own.workflow}>
      <div className={own.field}>
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          className={styles.input}
          value={status}
          disabled={change.isPending}
          onChange={(e) => change.mutate({ id: review.id, change: { status: e.target.value as WorkflowStatus } })}
        >
          {WORKFLOW_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
        {review.status_reason ? <span className={own.reason}>{review.status_reason[0].toUpperCase() + review.status_reason.slice(1)}</span> : null}
      </div>
      <div className={own.field}>
        <label htmlFor={`${id}-assignee`}>Assignee</label>
        <select
          id={`${id}-assignee`}
          className={styles.input}
          value={assignee ?? ''}
          disabled={change.isPending}
          onChange={(e) => change.mutate({ id: review.id, change: { assignee_id: e.target.value || null } })}
        >
          <option value="">Nobody</option>
          {memberOptions(members).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <div className={own.field}>
        <span id={`${id}-tags`}>Tags</span>
        <ul className={own.tagList} aria-labelledby={`${id}-tags`}>
          {own_.length === 0 ? <li className={styles.muted}>None</li> : null}
          {own_.map((t) => (
            <li key={t.id} className={own.tag} style={{ borderColor: t.color }}>
              {t.name}
              <button
                type="button"
                className={own.tagRemove}
                aria-label={`Remove the tag ${t.name}`}
                disabled={change.isPending}
                onClick={() => change.mutate({ id: review.id, change: { tags_remove: [t.id] } })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <label htmlFor={`${id}-add-tag`} className="visually-hidden">
          Add a tag
        </label>
        <select
          id={`${id}-add-tag`}
          ref={tagPicker}
          className={styles.input}
          value=""
          disabled={change.isPending || addable.length === 0}
          onChange={(e) => e.target.value && change.mutate({ id: review.id, change: { tags_add: [e.target.value] } })}
        >
          <option value="">{tags.length === 0 ? 'No tags yet (Rules page)' : addable.length ? 'Add a tag…' : 'All tags added'}</option>
          {addable.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** The review's internal notes, oldest first, and a form to add one. */
function Notes({ review }: { review: QueueReview }) {
  const id = useId();
  const detail = useReviewDetail(review.id);
  const [text, setText] = useState('');
  const add = useAddNote({ onSuccess: () => (setText(''), toast.success('Note added')), onError: errorToast });
  const notes = detail.data?.notes ?? [];
  return (
    <section className={own.notes} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className={own.detailTitle}>
        Notes <span className={styles.muted}>(only your team sees them)</span>
      </h3>
      {detail.isPending ? (
        <Skeleton rows={1} label="Loading the notes" />
      ) : notes.length ? (
        <ol className={own.noteList}>
          {notes.map((n) => (
            <li key={n.id}>
              <p className={own.noteMeta}>
                <strong>{n.by}</strong> · <time dateTime={n.created_at}>{dateTime(n.created_at)}</time>
              </p>
              <p className={own.noteText}>{n.text}</p>
            </li>
          ))}
        </ol>
      ) : (
        <p className={styles.muted}>No notes yet.</p>
      )}
      <form
        className={own.noteForm}
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) add.mutate({ id: review.id, text: text.trim() });
        }}
      >
        <label htmlFor={`${id}-text`}>Add a note</label>
        <textarea id={`${id}-text`} className={styles.input} rows={2} maxLength={NOTE_MAX_CHARS} value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className={styles.quiet} disabled={!text.trim() || add.isPending} aria-busy={add.isPending}>
          Add note
        </button>
      </form>
    </section>
  );
}

/** The versions of the review before its edits, newest first (when the server keeps them). */
function History({ review }: { review: QueueReview }) {
  const detail = useReviewDetail(review.id);
  // The server lists them oldest first; the newest edit is the one a reader looks for.
  const edits = [...(detail.data?.history ?? [])].reverse();
  if (!edits.length) return null;
  return (
    <details className={own.history}>
      <summary>Earlier versions ({edits.length})</summary>
      <ol>
        {edits.map((v) => (
          <li key={v.version}>
            <p className={own.noteMeta}>
              <Stars rating={v.rating} /> · <time dateTime={v.updated_at}>{dateTime(v.updated_at)}</time>
            </p>
            {v.title ? <strong>{v.title}</strong> : null}
            <p className={own.noteText}>{v.body}</p>
          </li>
        ))}
      </ol>
    </details>
  );
}

type TicketLinked = { ticket?: { ticket_id: number; url: string; status: string | null } | null };

export type DetailProps = {
  review: QueueReview & TicketLinked;
  app: OrgApp | undefined;
  terms: string[];
  tags: Tag[];
  members: OrgMember[];
  /** Bumped by "r": opens the composer. */
  replyRequest: number;
  /** Bumped by "t": focuses the tag picker. */
  tagRequest: number;
};

export default function ReviewDetail({ review, app, terms, tags, members, replyRequest, tagRequest }: DetailProps) {
  const [composing, setComposing] = useState(false);
  const [seenReply, setSeenReply] = useState(replyRequest);
  if (replyRequest !== seenReply) {
    setSeenReply(replyRequest);
    setComposing(true);
  }
  const own_ = review.reply;
  // What the store shows, unless ARB's reply is on its way there (a draft, or a rule's draft waiting for approval, is
  // not a reply yet: it is in the composer, or on the Replies page).
  const sent = own_ && !NOT_SENT.has(own_.state);
  const replyShown = sent ? (own_.state === 'published' ? (review.reply_text ?? own_.text) : own_.text) : review.reply_text;
  return (
    <article className={own.review} aria-label={`${review.content_rating}-star review by ${review.author_display_name}`}>
      <header className={own.reviewHead}>
        <Stars rating={review.content_rating} />
        {review.edited ? (
          <span className={own.edited}>
            Edited{review.previous_rating !== null ? ` (was ${review.previous_rating} star${review.previous_rating === 1 ? '' : 's'})` : ''}
          </span>
        ) : null}
        <span className={own.app}>{review.title}</span>
      </header>
      {review.content_title ? (
        <h3 className={own.reviewTitle}>
          <Highlight text={review.content_title} terms={terms} />
        </h3>
      ) : null}
      <p className={own.body}>
        <Highlight text={review.content_body} terms={terms} />
      </p>
      {review.content_body || review.content_title ? <Translation review={review} /> : null}
      <p className={own.meta}>
        <span>{review.author_display_name}</span>
        {review.country ? <span>{storefrontName(review.country)}</span> : null}
        {review.version ? <span>Version {review.version}</span> : null}
        {review.sentiment ? <span>{review.sentiment[0].toUpperCase() + review.sentiment.slice(1)}</span> : null}
        <time dateTime={review.content_updated_at}>{date(review.content_updated_at)}</time>
        <a href={review.store_permalink} target="_blank" rel="noreferrer">
          In the store
        </a>
        <ReviewTicket reviewId={review.id} ticket={review.ticket} />
      </p>
      <History review={review} />
      {replyShown ? (
        <blockquote className={own.reply}>
          <strong>Your reply</strong>
          {!own_ && review.replied_at ? <> · {date(review.replied_at)}</> : null}
          <p>{replyShown}</p>
        </blockquote>
      ) : null}
      {own_?.state === 'failed' && own_.failure ? (
        <p className={own.failure} role="note">
          {own_.failure}
        </p>
      ) : null}
      <div className={own.replyBar}>
        {own_ ? <ReplyStatus reply={own_} /> : null}
        {own_?.state === 'awaiting_approval' ? <Link href="/dashboard/replies">Review the draft</Link> : null}
        {!composing ? (
          <button type="button" className={styles.quiet} onClick={() => setComposing(true)} aria-label={`${replyShown ? 'Edit reply' : 'Reply'} to ${review.author_display_name}`}>
            {replyShown ? 'Edit reply' : 'Reply'}
          </button>
        ) : null}
      </div>
      {composing ? <ReplyComposer review={review} hasCredentials={!!app?.credentials} onDone={() => setComposing(false)} autoFocus /> : null}
      <Workflow review={review} tags={tags} members={members} tagRequest={tagRequest} />
      <Notes review={review} />
    </article>
  );
}
