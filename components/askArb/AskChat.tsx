/**
 * The Ask ARB conversation, shared by /ask-arb (a visitor, one app, dark) and /dashboard/ask (the organisation's apps,
 * with the user's token, light): the turns so far, the question box with Ask (Enter) and Stop, and the cited reviews.
 *
 * Screen readers: the answer streams into the conversation list, which is not a live region (it would be read again
 * with every token); a separate status line says that ARB is answering, then reads the whole answer once it is done.
 * Errors are alerts with what to do next.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { AskCitation } from '@/shared/askArb';
import AnswerText, { citationLabel } from './AnswerText';
import CitationDialog, { Stars } from './CitationDialog';
import type { ChatApp } from './chatStorage';
import { useAskChat, type Turn, type TurnError } from './useAskChat';
import styles from './AskChat.module.css';

export type AskChatProps = {
  tone: 'dark' | 'light';
  storageKey: string;
  app?: ChatApp | null;
  getToken?: () => Promise<string | null>;
  /** Why nothing can be asked yet (e.g. no app picked); the Ask button stays off and this says why. */
  blocked?: string;
  /** What to add under a refused question's message (a sign-in or upgrade link). */
  refusalHelp?: (error: TurnError) => ReactNode;
  suggestions?: readonly string[];
  /** Put the focus in the question box when mounted (after the visitor chose the app). */
  focusQuestion?: boolean;
};

const RETRY_HELPS_NOT = new Set([402, 429]);

function Answer({ turn, onCite, onRetry, refusalHelp }: { turn: Turn; onCite: (c: AskCitation) => void; onRetry: () => void; refusalHelp?: AskChatProps['refusalHelp'] }) {
  const cited = [...turn.citations].sort((a, b) => a.n - b.n);
  return (
    <>
      {turn.content ? (
        <AnswerText text={turn.content} citations={turn.citations} onCite={onCite} />
      ) : turn.state === 'streaming' ? (
        <p className={styles.waiting}>Looking through the reviews…</p>
      ) : null}
      {cited.length ? (
        <ul className={styles.sources} aria-label="Reviews cited">
          {cited.map((c) => (
            <li key={c.n}>
              <button type="button" className={styles.source} aria-label={`Open ${citationLabel(c)}`} onClick={() => onCite(c)}>
                <span className={styles.sourceNumber}>[{c.n}]</span> <Stars rating={c.rating} /> <span className={styles.sourceText}>{c.title || c.body}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {turn.state === 'stopped' ? (
        <p className={styles.note}>
          Stopped.{' '}
          <button type="button" className={styles.link} onClick={onRetry}>
            Ask again
          </button>
        </p>
      ) : null}
      {turn.state === 'error' && turn.error ? (
        <div role="alert" className={styles.error}>
          <p>{turn.error.message}</p>
          {refusalHelp?.(turn.error)}
          {turn.error.status && RETRY_HELPS_NOT.has(turn.error.status) ? null : (
            <button type="button" className={styles.secondary} onClick={onRetry}>
              Ask again
            </button>
          )}
        </div>
      ) : null}
    </>
  );
}

/** What the status line says: one message while answering, the whole answer once, nothing for older turns. */
function announcement(turns: Turn[]): string {
  const last = turns[turns.length - 1];
  if (!last || last.role !== 'assistant' || !last.live) return '';
  if (last.state === 'streaming') return 'Ask ARB is answering…';
  if (last.state === 'stopped') return 'Answer stopped.';
  if (last.state === 'done') return `Ask ARB answered: ${last.content}`;
  return '';
}

export default function AskChat({ tone, storageKey, app, getToken, blocked, refusalHelp, suggestions = [], focusQuestion }: AskChatProps) {
  const chat = useAskChat({ storageKey, app, getToken });
  const [question, setQuestion] = useState('');
  const [open, setOpen] = useState<AskCitation | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const hintId = useId();
  const status = announcement(chat.turns);
  useEffect(() => {
    if (focusQuestion) inputRef.current?.focus();
  }, [focusQuestion]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (blocked || chat.busy || !question.trim()) return;
    void chat.ask(question);
    setQuestion('');
    inputRef.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };

  return (
    <div className={tone === 'dark' ? `${styles.chat} ${styles.dark}` : styles.chat}>
      {chat.restoring ? <p className={styles.note}>Loading your conversation…</p> : null}
      {chat.restoreFailed ? <p className={styles.note}>Your earlier conversation could not be loaded. Ask a new question to start again.</p> : null}
      {chat.turns.length ? (
        <ol className={styles.log} aria-label="Conversation" aria-busy={chat.busy}>
          {chat.turns.map((t) => (
            <li key={t.key} className={t.role === 'user' ? styles.user : styles.assistant} data-state={t.state}>
              <p className={styles.who}>{t.role === 'user' ? 'You' : 'Ask ARB'}</p>
              {t.role === 'user' ? (
                <p className={styles.text}>{t.content}</p>
              ) : (
                <Answer turn={t} onCite={setOpen} onRetry={() => chat.retry(t.key)} refusalHelp={refusalHelp} />
              )}
            </li>
          ))}
        </ol>
      ) : null}
      <p role="status" aria-atomic="true" className="visually-hidden">
        {status}
      </p>
      <form className={styles.composer} onSubmit={submit}>
        <label htmlFor={inputId} className={styles.label}>
          {chat.turns.length ? 'Ask a follow-up question' : 'Your question'}
        </label>
        <textarea
          ref={inputRef}
          id={inputId}
          className={styles.input}
          rows={2}
          maxLength={2000}
          value={question}
          placeholder="e.g. How many 1-star reviews in the last 30 days?"
          aria-describedby={blocked ? hintId : undefined}
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className={styles.actions}>
          {chat.busy ? (
            <button
              type="button"
              className={styles.secondary}
              onClick={() => {
                chat.stop();
                inputRef.current?.focus();
              }}
            >
              Stop
            </button>
          ) : (
            <button type="submit" className={styles.primary} disabled={!!blocked}>
              Ask
            </button>
          )}
          {chat.turns.length && !chat.busy ? (
            <button type="button" className={styles.secondary} onClick={chat.reset}>
              New conversation
            </button>
          ) : null}
        </div>
        {blocked ? (
          <p id={hintId} className={styles.note}>
            {blocked}
          </p>
        ) : null}
      </form>
      {!chat.turns.length && suggestions.length ? (
        <div className={styles.suggestions}>
          <p className={styles.note}>Or start from one of these:</p>
          <ul>
            {suggestions.map((s) => (
              <li key={s}>
                <button
                  type="button"
                  className={styles.suggestion}
                  onClick={() => {
                    setQuestion(s);
                    inputRef.current?.focus();
                  }}
                >
                  {s}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <CitationDialog citation={open} onClose={() => setOpen(null)} />
    </div>
  );
}
