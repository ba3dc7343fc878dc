/**
 * "Translate" on a review in the inbox: the review's title and body in the reader's language (the browser's), from
 * the server's translator (cached per review there). Hidden when the review is written in that language already.
 * Without a translator on the server it says so in plain words, with the way to turn it on (AiSetupNote).
 */
import { useState } from 'react';
import { ApiError } from '@/lib/api/client';
import type { InboxReview } from '@/lib/api/reviews';
import type { ReviewTranslation } from '@/lib/api/ai';
import { useTranslateReview } from '@/lib/queries/ai';
import { useOrganisation } from '@/lib/queries/team';
import { languageName, TRANSLATION_NOT_CONFIGURED } from '@/shared/ai';
import AiSetupNote from '../ai/AiSetupNote';
import { errorToast } from '../common';
import styles from '../Dashboard.module.css';
import own from './Reviews.module.css';

const PROVIDERS: Record<ReviewTranslation['provider'], string> = {
  libretranslate: 'LibreTranslate',
  deepl: 'DeepL',
  google: 'Google Translate',
  llm: 'the language model',
  original: 'nobody: it is written in this language',
};

/** The reader's language: the browser's first one, as a two- or three-letter code. */
export function readerLanguage(): string {
  const tag = typeof navigator !== 'undefined' ? (navigator.languages?.[0] ?? navigator.language) : '';
  return (/^[a-z]{2,3}/i.exec(tag ?? '')?.[0] ?? 'en').toLowerCase();
}

export default function Translation({ review, language = readerLanguage() }: { review: Pick<InboxReview, 'id' | 'language'>; language?: string }) {
  const [shown, setShown] = useState<ReviewTranslation | null>(null);
  const [answered, setNote] = useState<string | null>(null);
  // The organisation answer says up front whether this server has a translator (the 503 says it too, if it changed).
  const org = useOrganisation();
  const note = answered ?? (org.data?.ai && !org.data.ai.translation ? TRANSLATION_NOT_CONFIGURED : null);
  const translate = useTranslateReview({
    onSuccess: (t) => (setShown(t), setNote(null)),
    onError: (e) => (e instanceof ApiError && e.code === 'translation_not_configured' ? setNote(e.message) : errorToast(e)),
  });
  if ((review.language ?? '').toLowerCase().split(/[-_]/)[0] === language) return null;
  const name = languageName(language);
  return (
    <div className={own.translation}>
      {shown ? (
        <section lang={shown.language} aria-label={`Translation into ${name}`}>
          <strong>Translation ({name})</strong>
          {shown.title ? <h4 className={own.reviewTitle}>{shown.title}</h4> : null}
          <p className={own.body}>{shown.body}</p>
          <p className={own.meta}>
            <span>Translated by {PROVIDERS[shown.provider]}</span>
            <button type="button" className={styles.quiet} onClick={() => setShown(null)}>
              Hide translation
            </button>
          </p>
        </section>
      ) : (
        <button type="button" className={styles.quiet} disabled={translate.isPending || !!note} aria-busy={translate.isPending} onClick={() => translate.mutate({ reviewId: review.id, language })}>
          {translate.isPending ? 'Translating…' : `Translate to ${name}`}
        </button>
      )}
      {note ? <AiSetupNote className={own.composerNote} message={note} /> : null}
    </div>
  );
}
