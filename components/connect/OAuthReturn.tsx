/**
 * Where Slack or Discord sends the browser back after "Add to …": finishes the install (POST v1/oauth/slack/callback
 * or v1/oauth/bot/connect with the code and the signed state) and shows the connection's status. The address bar is
 * then switched to ?destination=… so a reload shows the status instead of replaying a used code.
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { destinationKey, destinationStatusOf } from '@/lib/queries/connect';
import styles from './Connect.module.css';
import ConnectionStatus from './ConnectionStatus';

type Phase = { kind: 'working' } | { kind: 'done'; destinationId: string } | { kind: 'failed'; message: string };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
const DESTINATION = /^dst_[0-9A-Za-z]{24}$/;

/** The platforms with an "Add to …" install, and their names as the page writes them. */
export const OAUTH_PLATFORM_NAMES = { slack: 'Slack', discord: 'Discord' } as const;
export type OAuthPlatform = keyof typeof OAUTH_PLATFORM_NAMES;

/**
 * What the address alone says: a finished install (?destination=…), a refusal, or a link without its code. Null while
 * the code still has to be exchanged.
 */
function phaseFromQuery(query: Record<string, string | string[] | undefined>, name: string): Phase | null {
  const destination = one(query.destination);
  if (DESTINATION.test(destination)) return { kind: 'done', destinationId: destination };
  const error = one(query.error);
  if (error) {
    return {
      kind: 'failed',
      message: error === 'access_denied' ? `You cancelled on ${name}’s page, so nothing was connected.` : `${name} did not complete the install (${error}).`,
    };
  }
  if (!one(query.code) || !one(query.state)) {
    return { kind: 'failed', message: `This page finishes “Add to ${name}”, but the link is missing its code. Start again from the ARB home page.` };
  }
  return null;
}

export default function OAuthReturn({ platform }: { platform: OAuthPlatform }) {
  const router = useRouter();
  const name = OAUTH_PLATFORM_NAMES[platform];
  const fromQuery = router.isReady ? phaseFromQuery(router.query, name) : null;
  const [exchanged, setExchanged] = useState<Phase>({ kind: 'working' });
  const started = useRef(false);
  const queryClient = useQueryClient();
  const needsExchange = router.isReady && fromQuery === null;

  useEffect(() => {
    if (!needsExchange || started.current) return;
    started.current = true; // one exchange per visit, even if React runs effects twice
    const code = one(router.query.code);
    const state = one(router.query.state);
    const exchange = async () => {
      try {
        const api = await import('@/lib/api/connect');
        // The session, when there is one: an install started from the dashboard finishes only in its starter's session
        // (the server ignores the session of one started without a session, which stays an anonymous connection).
        const session = await (await import('@/lib/api/org')).signedIn().catch(() => undefined);
        const result = platform === 'slack' ? await api.finishSlackOAuth({ code, state }, session) : await api.connectBot({ platform, code, state }, session);
        const status = destinationStatusOf(result);
        if (status) queryClient.setQueryData(destinationKey(result.destination_id), status);
        setExchanged({ kind: 'done', destinationId: result.destination_id });
        // A reload then shows the status instead of replaying a used code; a failed URL update changes nothing shown.
        void router.replace({ pathname: router.pathname, query: { destination: result.destination_id } }, undefined, { shallow: true });
      } catch (err) {
        setExchanged({ kind: 'failed', message: err instanceof Error && err.message ? err.message : `The ${name} install could not be finished. Try again.` });
      }
    };
    void exchange();
  }, [needsExchange, router, platform, name, queryClient]);

  const phase = fromQuery ?? exchanged;
  return (
    <div className={styles.page}>
      <h1 className={styles.pageHeading}>Add to {name}</h1>
      {phase.kind === 'working' ? (
        <p role="status">Finishing the connection with {name}…</p>
      ) : phase.kind === 'failed' ? (
        <>
          <p role="alert" className={styles.alert}>
            {phase.message}
          </p>
          <p>
            <Link href="/try-free">Start again</Link>
          </p>
        </>
      ) : (
        <div className={styles.flow}>
          <ConnectionStatus destinationId={phase.destinationId} />
        </div>
      )}
    </div>
  );
}
