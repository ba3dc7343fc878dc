/**
 * The reply composer of one review in the inbox: a text box with the store's limit counted as you type (App Store
 * 5,970 characters, Google Play 350; over it, sending is refused here before anything is sent), the app's saved
 * templates ({author} and {app} filled in), saving the text as a template, "Draft a reply" (the language model writes
 * one in the review's language and the app's tone, into the text box: a person reads, edits and sends it; without a
 * model the button is disabled and says why, with the way to turn it on: AiSetupNote), and Send. Without store credentials for the app it says where to add
 * them instead (the Apps page's Store credentials).
 */
import Link from 'next/link';
import { useId, useState } from 'react';
import toast from '@/lib/hotToast';
import type { InboxReview } from '@/lib/api/reviews';
import { ApiError } from '@/lib/api/client';
import { useDraftInfo, useDraftReply } from '@/lib/queries/ai';
import { useCreateTemplate, useDeleteTemplate, useReplyTemplates, useSendReply } from '@/lib/queries/replies';
import { DEFAULT_REPLY_TONE, languageName, REPLY_TONE_LABELS, REPLY_TONES, type ReplyTone } from '@/shared/ai';
import { fillTemplate, REPLY_MAX_CHARS, replyLength, STORE_NAMES, type ReplyStore } from '@/shared/replies';
import AiSetupNote from '../ai/AiSetupNote';
import { errorToast } from '../common';
import styles from '../Dashboard.module.css';
import own from './Reviews.module.css';

const CREDENTIALS_NAME: Record<ReplyStore, string> = { apple_app_store: 'App Store Connect API key', google_play_store: 'Google Play service account' };

export type ComposerProps = {
  review: Pick<InboxReview, 'id' | 'app_key' | 'app_store' | 'title' | 'author_display_name' | 'reply_text' | 'reply'>;
  /** Whether the organisation stored the app's store credentials (replies go through the store's API with them). */
  hasCredentials: boolean;
  onDone: () => void;
  /** Put the cursor in the text box when it opens (the inbox's "r"). */
  autoFocus?: boolean;
};

function Templates({ review, text, setText }: { review: ComposerProps['review']; text: string; setText: (t: string) => void }) {
  const id = useId();
  const templates = useReplyTemplates(review.app_key);
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const create = useCreateTemplate({ onSuccess: (t) => (toast.success(`Template "${t.name}" saved`), setName(''), setChosen(t.id)), onError: errorToast });
  const remove = useDeleteTemplate({ onSuccess: () => (toast.success('Template deleted'), setChosen('')), onError: errorToast });
  const list = templates.data ?? [];
  return (
    <div className={own.templates}>
      <label htmlFor={`${id}-pick`}>Template</label>
      <select
        id={`${id}-pick`}
        className={styles.input}
        value={chosen}
        disabled={!list.length}
        onChange={(e) => {
          setChosen(e.target.value);
          const t = list.find((x) => x.id === e.target.value);
          if (t) setText(fillTemplate(t.body, { author: review.author_display_name, app: review.title }));
        }}
      >
        <option value="">{templates.isPending ? 'Loading templates…' : list.length ? 'Choose a template' : 'No templates yet'}</option>
        {list.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      {chosen ? (
        <button type="button" className={styles.quiet} disabled={remove.isPending} onClick={() => remove.mutate(chosen)}>
          Delete template
        </button>
      ) : null}
      <label htmlFor={`${id}-name`} className="visually-hidden">
        Template name
      </label>
      <input id={`${id}-name`} className={styles.input} placeholder="Template name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      <button
        type="button"
        className={styles.quiet}
        disabled={!name.trim() || !text.trim() || create.isPending}
        title="Use {author} and {app} in the text: they are filled in when the template is used"
        onClick={() => create.mutate({ app_key: review.app_key, name: name.trim(), body: text })}
      >
        Save as template
      </button>
    </div>
  );
}

/** The tone (kept for the app once used) and "Draft a reply", which fills the text box with the model's draft. */
function Drafting({ review, setText }: { review: ComposerProps['review']; setText: (t: string) => void }) {
  const id = useId();
  const store = review.app_store as ReplyStore;
  const info = useDraftInfo(review.id);
  const [tone, setTone] = useState<ReplyTone | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [noModel, setNoModel] = useState(false);
  const chosen = tone ?? info.data?.tone ?? DEFAULT_REPLY_TONE;
  const draft = useDraftReply({
    onSuccess: (d) => {
      setText(d.text);
      setNote(d.trimmed ? `The draft was cut to fit ${STORE_NAMES[store]}'s ${d.max.toLocaleString('en-US')} characters: read it to the end.` : null);
      toast.success(`Draft written in ${languageName(d.language)}: read it, edit it, then send it`);
    },
    onError: (e) => (e instanceof ApiError && e.code === 'llm_not_configured' ? (setNote(e.message), setNoModel(true)) : errorToast(e)),
  });
  const unavailable = info.data && !info.data.language_model ? info.data.not_configured : null;
  const said = unavailable ?? note;
  return (
    <div className={own.templates}>
      <label htmlFor={`${id}-tone`}>Tone</label>
      <select id={`${id}-tone`} className={styles.input} value={chosen} onChange={(e) => setTone(e.target.value as ReplyTone)} title="Kept for this app: the next drafts use it too">
        {REPLY_TONES.map((t) => (
          <option key={t} value={t}>
            {REPLY_TONE_LABELS[t]}
          </option>
        ))}
      </select>
      <button
        type="button"
        className={styles.quiet}
        disabled={!!unavailable || draft.isPending}
        aria-busy={draft.isPending}
        aria-describedby={said ? `${id}-why` : undefined}
        title={unavailable ?? "The language model writes a reply in the review's language; you read, edit and send it"}
        onClick={() => draft.mutate({ reviewId: review.id, tone: chosen })}
      >
        {draft.isPending ? 'Drafting…' : 'Draft a reply'}
      </button>
      {said ? unavailable || noModel ? (
        <AiSetupNote id={`${id}-why`} className={own.composerNote} message={said} />
      ) : (
        <p id={`${id}-why`} className={own.composerNote} role="note">
          {said}
        </p>
      ) : null}
    </div>
  );
}

export default function ReplyComposer({ review, hasCredentials, onDone, autoFocus = false }: ComposerProps) {
  const id = useId();
  const store = review.app_store as ReplyStore;
  const max = REPLY_MAX_CHARS[store];
  const [text, setText] = useState(review.reply?.text ?? review.reply_text ?? '');
  const send = useSendReply({
    onSuccess: (r) => {
      toast.success(
        r.state === 'draft' ? 'Draft saved' : r.state === 'sending' ? 'Reply saved: it is sent as soon as the store allows' : `Reply sent to ${STORE_NAMES[store]}`,
      );
      onDone();
    },
    onError: errorToast,
  });

  if (!hasCredentials) {
    return (
      <p className={own.composerNote} role="note">
        Replies go through {STORE_NAMES[store]}&rsquo;s own API: add this app&rsquo;s {CREDENTIALS_NAME[store]} on the{' '}
        <Link href="/dashboard/apps">Apps page</Link> (its Store credentials), then reply here.
      </p>
    );
  }

  const n = replyLength(text);
  const over = n > max;
  return (
    <form
      className={own.composer}
      aria-label={`Reply to ${review.author_display_name}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (over || !text.trim()) return;
        send.mutate({ reviewId: review.id, text });
      }}
    >
      <Templates review={review} text={text} setText={setText} />
      <Drafting review={review} setText={setText} />
      <label htmlFor={`${id}-text`}>Your reply</label>
      <textarea
        id={`${id}-text`}
        className={`${styles.input} ${own.replyText}`}
        rows={store === 'google_play_store' ? 3 : 5}
        value={text}
        autoFocus={autoFocus}
        aria-invalid={over}
        aria-describedby={`${id}-count`}
        onChange={(e) => setText(e.target.value)}
      />
      <p id={`${id}-count`} className={over ? own.countOver : own.count} aria-live="polite">
        {n.toLocaleString('en-US')} / {max.toLocaleString('en-US')} characters
        {over ? ` — too long for ${STORE_NAMES[store]}: shorten it by ${(n - max).toLocaleString('en-US')}.` : ''}
      </p>
      <div className={own.composerActions}>
        <button type="button" className={styles.quiet} onClick={onDone}>
          Cancel
        </button>
        <button type="button" className={styles.quiet} disabled={over || !text.trim() || send.isPending} onClick={() => send.mutate({ reviewId: review.id, text, draft: true })}>
          Save draft
        </button>
        <button type="submit" className={styles.button} disabled={over || !text.trim() || send.isPending} aria-busy={send.isPending}>
          {send.isPending ? 'Sending…' : 'Send reply'}
        </button>
      </div>
    </form>
  );
}
