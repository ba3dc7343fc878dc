/**
 * /ask-arb's conversation for a visitor: pick any app from the stores, then ask about its public reviews (ARB fetches
 * and stores the app's reviews when it has none). No token is sent: the visitor's small daily allowance applies, and
 * when it is used up the message says so, with the way on (signing in asks about your own apps in the dashboard).
 * Loaded by AskArbSection only when the section comes into view or is used.
 */
import Link from 'next/link';
import { useState } from 'react';
import QueryProvider from '@/components/common/QueryProvider';
import AppPicker from './AppPicker';
import AskChat from './AskChat';
import { forgetChat, readStoredChat, VISITOR_CHAT_KEY, type ChatApp } from './chatStorage';
import type { TurnError } from './useAskChat';

const SUGGESTIONS = ['How many 1-star reviews in the last 30 days?', 'What do people complain about most?', 'What is the average rating by version?'] as const;

function refusalHelp(error: TurnError) {
  if (error.status !== 429) return null;
  return (
    <p>
      <Link href="/login?redirect_to=/dashboard/ask">Sign in</Link>
    </p>
  );
}

function Chat({ autoFocus }: { autoFocus?: boolean }) {
  const [app, setApp] = useState<ChatApp | null>(() => readStoredChat(VISITOR_CHAT_KEY)?.app ?? null);
  const [chosenHere, setChosenHere] = useState(false);
  const choose = (next: ChatApp | null) => {
    forgetChat(VISITOR_CHAT_KEY); // another app is another conversation
    setApp(next);
    setChosenHere(next !== null);
  };
  return (
    <>
      <AppPicker app={app} onChange={choose} autoFocus={autoFocus} />
      <AskChat
        key={app ? `${app.store}:${app.id}` : 'no-app'}
        tone="dark"
        storageKey={VISITOR_CHAT_KEY}
        app={app}
        blocked={app ? undefined : 'Choose an app first: Ask ARB answers from its reviews.'}
        refusalHelp={refusalHelp}
        suggestions={SUGGESTIONS}
        focusQuestion={chosenHere}
      />
    </>
  );
}

export default function VisitorChat({ autoFocus }: { autoFocus?: boolean }) {
  return (
    <QueryProvider>
      <Chat autoFocus={autoFocus} />
    </QueryProvider>
  );
}
