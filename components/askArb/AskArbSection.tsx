/**
 * Where /ask-arb's conversation lives. The page stays as light as a static page: the chat's code (React Query, the
 * HTTP client, the store search) is downloaded only when the section comes into view, when someone starts it, or at
 * once when this tab was already in a conversation (to restore it). Until then the space it takes is reserved, so
 * nothing below moves when it arrives.
 */
import dynamic from 'next/dynamic';
import { useEffect, useRef, useState } from 'react';
import { readStoredChat, VISITOR_CHAT_KEY } from './chatStorage';
import styles from './AskArbSection.module.css';

function Loading() {
  return <p className={styles.loading}>Loading Ask ARB…</p>;
}

const VisitorChat = dynamic(() => import('./VisitorChat'), { ssr: false, loading: Loading });

export default function AskArbSection() {
  const slot = useRef<HTMLDivElement>(null);
  const [load, setLoad] = useState<false | 'seen' | 'started'>(false);

  useEffect(() => {
    const restore = !!readStoredChat(VISITOR_CHAT_KEY)?.chatId;
    const el = slot.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      const now = setTimeout(() => setLoad((l) => l || 'seen'));
      return () => clearTimeout(now);
    }
    // The observer reports once right away (in view or not), then on every change.
    const seen = new IntersectionObserver(
      (entries) => {
        if (restore || entries.some((e) => e.isIntersecting)) setLoad((l) => l || 'seen');
      },
      { rootMargin: '100px' },
    );
    seen.observe(el);
    return () => seen.disconnect();
  }, []);

  return (
    <div ref={slot} className={styles.slot}>
      {load ? (
        <VisitorChat autoFocus={load === 'started'} />
      ) : (
        <button type="button" className={styles.start} onClick={() => setLoad('started')}>
          Start asking
        </button>
      )}
    </div>
  );
}
