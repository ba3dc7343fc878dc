/**
 * /dashboard/ask: Ask ARB over the organisation's apps, with the signed-in user's token (the plan's monthly question
 * allowance is counted by the server; when it is used up, the message names the plan and this adds the way to
 * Billing). Without apps there is nothing to ask about yet: the page says where to add one.
 *
 * The app in view ("Ask about", `?app=<key>` from an app's page) is sent with each question: the server answers about
 * that app unless the question names another one, or all of them. "All apps" sends none.
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useId, useMemo } from 'react';
import { ApiError } from '@/lib/api/client';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { useOrgApps } from '@/lib/queries/orgApps';
import { freshAccessToken } from '@/lib/session';
import { Skeleton } from '@/components/dashboard/common';
import styles from '@/components/dashboard/Dashboard.module.css';
import AskChat from './AskChat';
import { DASHBOARD_CHAT_KEY } from './chatStorage';
import type { TurnError } from './useAskChat';

const SUGGESTIONS = ['How many 1-star reviews last week?', 'What do people complain about most?', 'Show me reviews about login'] as const;

async function token(): Promise<string> {
  const t = await freshAccessToken();
  if (!t) throw new ApiError('Your session has ended. Sign in again.', 401, 'unauthorized');
  return t;
}

function refusalHelp(error: TurnError) {
  if (error.status === 402) return <p><Link href="/dashboard/billing">See plans in Billing</Link></p>;
  if (error.status === 401) return <p><Link href="/login?redirect_to=/dashboard/ask">Sign in again</Link></p>;
  return null;
}

export default function OrgChat() {
  const apps = useOrgApps();
  const router = useRouter();
  const pickerId = useId();
  const inView = typeof router.query.app === 'string' ? router.query.app : '';
  const viewed = apps.data?.find((a) => a.key === inView);
  const app = useMemo(() => (viewed ? { id: viewed.app_id, store: viewed.app_store, title: viewed.title } : null), [viewed]);
  if (apps.isPending) return <Skeleton rows={3} label="Loading your apps" />;
  if (apps.isError) return <p role="alert">{apps.error.message}</p>;
  const list = apps.data;
  const choose = (key: string) => void router.replace({ pathname: router.pathname, query: key ? { app: key } : {} }, undefined, { shallow: true });
  return (
    <section className={styles.section} aria-labelledby="ask-heading">
      <h2 id="ask-heading" className={styles.sectionTitle}>
        Ask about your reviews
      </h2>
      {list.length ? (
        <p className={styles.muted}>
          Ask ARB answers from the stored reviews of {list.map((a) => `${a.title} (${APP_STORE_NAMES[a.app_store]})`).join(', ')}, and cites the reviews it used. Name an app,
          a country, a version or dates in your question to narrow it.
        </p>
      ) : (
        <p className={styles.muted}>
          Ask ARB answers from your apps&apos; reviews. <Link href="/dashboard/apps">Add an app</Link> first.
        </p>
      )}
      {list.length > 1 ? (
        <div className={styles.field}>
          <label htmlFor={pickerId}>Ask about</label>
          <select id={pickerId} className={styles.select} value={viewed ? viewed.key : ''} onChange={(e) => choose(e.target.value)}>
            <option value="">All apps</option>
            {list.map((a) => (
              <option key={a.key} value={a.key}>
                {a.title} ({APP_STORE_NAMES[a.app_store]})
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <AskChat
        app={app}
        tone="light"
        storageKey={DASHBOARD_CHAT_KEY}
        getToken={token}
        blocked={list.length ? undefined : 'Add an app first: Ask ARB answers from its reviews.'}
        refusalHelp={refusalHelp}
        suggestions={SUGGESTIONS}
      />
    </section>
  );
}
