/**
 * One Ask ARB conversation in the browser: the turns shown, the chat id, asking (the answer streams into the last
 * turn: text as `token` events arrive, citations as `citation` events, replaced by the stored message on `done`),
 * stopping (the request is aborted; what arrived stays, marked stopped), asking a failed question again, and the
 * chat restored from `GET chat/{id}` when this tab was in one (chatStorage.ts). Follow-ups send the conversation so
 * far with the chat id, so the server keeps the context.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getAskArbChat, streamAskArb, type AskChatRequest, type AskCitation, type AskMessage } from '@/lib/api/askArb';
import type { ApiError } from '@/lib/api/client';
import { forgetChat, readStoredChat, storeChat, type ChatApp } from './chatStorage';

export type TurnState = 'done' | 'streaming' | 'stopped' | 'error';
export type TurnError = { code: string; message: string; status?: number };

export type Turn = {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  citations: AskCitation[];
  method?: AskMessage['method'];
  state: TurnState;
  error?: TurnError;
  /** Asked in this visit (not restored): the only answers the status line reads out. */
  live?: boolean;
};

export type AskChatOptions = {
  storageKey: string;
  /** A visitor's app (sent as app_id/app_store, kept with the chat id); none in the dashboard. */
  app?: ChatApp | null;
  /** The signed-in user's fresh access token; absent for a visitor. */
  getToken?: () => Promise<string | null>;
};

const INCOMPLETE: TurnError = { code: 'incomplete', message: 'The answer stopped before it was complete. Please ask again.' };

const turnOf = (m: AskMessage): Turn => ({
  key: m.id,
  role: m.role,
  content: m.content,
  citations: m.citations ?? [],
  method: m.method,
  state: 'done',
});

let seq = 0;
const localKey = () => `local-${Date.now().toString(36)}-${seq++}`;

/** The conversation the server is given: questions, and the answers that were completed (not stopped or failed ones). */
export function conversationOf(turns: Turn[]): AskChatRequest['messages'] {
  return turns.filter((t) => t.role === 'user' || t.state === 'done').map((t) => ({ role: t.role, content: t.content }));
}

export function useAskChat({ storageKey, app, getToken }: AskChatOptions) {
  // The chat this tab was in when the page opened; read once (client-only: the chat renders in the browser only).
  const [restoreId] = useState(() => (typeof window === 'undefined' ? undefined : readStoredChat(storageKey)?.chatId));
  const [chatId, setChatId] = useState(restoreId);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const abortRef = useRef<AbortController | null>(null);

  const restored = useQuery({
    queryKey: ['askArbChat', restoreId],
    queryFn: async () => {
      const token = getToken ? await getToken() : null;
      return getAskArbChat(restoreId!, token);
    },
    enabled: !!restoreId,
    retry: false,
    staleTime: Infinity,
  });
  const [keepRestored, setKeepRestored] = useState(true);
  const restoredTurns = useMemo(() => (keepRestored ? (restored.data?.messages ?? []).map(turnOf) : []), [restored.data, keepRestored]);
  const restoreFailed = restored.isError;
  useEffect(() => {
    // A chat that can no longer be read (gone, or another user's) is forgotten; the next question starts a new one.
    if (restoreFailed) {
      forgetChat(storageKey);
      setChatId(undefined);
    }
  }, [restoreFailed, storageKey]);

  const allTurns = useMemo(() => [...restoredTurns, ...turns], [restoredTurns, turns]);
  const allRef = useRef(allTurns);
  allRef.current = allTurns;
  const chatIdRef = useRef(chatId);
  chatIdRef.current = chatId;

  // Leaving the page ends an answer in progress.
  useEffect(() => () => abortRef.current?.abort(), []);

  const update = (key: string, change: (t: Turn) => Turn) => setTurns((list) => list.map((t) => (t.key === key ? change(t) : t)));

  const ask = useCallback(
    async (question: string) => {
      const text = question.trim();
      if (!text || abortRef.current) return;
      const controller = new AbortController();
      abortRef.current = controller;
      setBusy(true);
      const answerKey = localKey();
      const messages = [...conversationOf(allRef.current), { role: 'user' as const, content: text }];
      setTurns((list) => [
        ...list,
        { key: localKey(), role: 'user', content: text, citations: [], state: 'done' },
        { key: answerKey, role: 'assistant', content: '', citations: [], state: 'streaming', live: true },
      ]);
      let ended = false;
      try {
        const token = getToken ? await getToken() : null;
        await streamAskArb(
          {
            messages,
            ...(chatIdRef.current ? { chat_id: chatIdRef.current } : {}),
            ...(app ? { app_id: app.id, app_store: app.store } : {}),
          },
          {
            token,
            signal: controller.signal,
            onEvent: (e) => {
              if (e.event === 'meta') {
                setChatId(e.data.chat_id);
                storeChat(storageKey, { chatId: e.data.chat_id, ...(app ? { app } : {}) });
              } else if (e.event === 'token') {
                update(answerKey, (t) => ({ ...t, content: t.content + e.data.text }));
              } else if (e.event === 'citation') {
                const c = e.data;
                update(answerKey, (t) => ({ ...t, citations: [...t.citations.filter((x) => x.n !== c.n), c] }));
              } else if (e.event === 'done') {
                ended = true;
                update(answerKey, () => ({ ...turnOf(e.data.message), key: answerKey, live: true }));
              } else if (e.event === 'error') {
                ended = true;
                update(answerKey, (t) => ({ ...t, state: 'error', error: e.data }));
              }
            },
          },
        );
        if (!ended) update(answerKey, (t) => ({ ...t, state: 'error', error: INCOMPLETE }));
      } catch (err) {
        if (controller.signal.aborted) update(answerKey, (t) => ({ ...t, state: 'stopped' }));
        else {
          const e = err as Partial<ApiError>;
          update(answerKey, (t) => ({ ...t, state: 'error', error: { code: e.code ?? 'error', message: e.message ?? String(err), status: e.status } }));
        }
      } finally {
        abortRef.current = null;
        setBusy(false);
      }
    },
    [app, getToken, storageKey],
  );

  const stop = useCallback(() => abortRef.current?.abort(), []);

  /** Asks the question of a failed or stopped answer again, in its place. */
  const retry = useCallback(
    (answerKey: string) => {
      const list = turns;
      const i = list.findIndex((t) => t.key === answerKey);
      const question = i > 0 ? list[i - 1] : undefined;
      if (!question || question.role !== 'user') return;
      setTurns(list.filter((_, j) => j !== i && j !== i - 1));
      allRef.current = allRef.current.filter((t) => t.key !== answerKey && t.key !== question.key);
      void ask(question.content);
    },
    [turns, ask],
  );

  /** A new conversation: the current one is forgotten in this tab (it stays stored on the server). */
  const reset = useCallback(() => {
    abortRef.current?.abort();
    forgetChat(storageKey);
    setChatId(undefined);
    setTurns([]);
    setKeepRestored(false);
    allRef.current = [];
  }, [storageKey]);

  return {
    turns: allTurns,
    chatId,
    busy,
    restoring: keepRestored && restored.isLoading,
    restoreFailed,
    ask,
    stop,
    retry,
    reset,
  };
}
