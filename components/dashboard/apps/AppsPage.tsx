/**
 * /dashboard/apps: the organisation's apps with their rating, review count, reviews this week and last review; admins
 * add apps (by search, like the home page), store each app's store credentials (CredentialsDrawer) and remove apps. The server decides who may do what; the page only hides
 * what the caller's role cannot do.
 */
import dynamic from 'next/dynamic';
import Image from 'next/image';
import Link from 'next/link';
import { useState } from 'react';
import toast from '@/lib/hotToast';
import type { OrgApp } from '@/lib/api/orgApps';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { useOrgApps, useRemoveOrgApp } from '@/lib/queries/orgApps';
import { useOrganisation } from '@/lib/queries/team';
import { storefrontName } from '@/shared/storefronts';
import { atLeast } from '@/shared/orgRoles';
import { ConfirmButton, date, errorToast, Skeleton } from '../common';
import { Stars } from '../reviews/reviewText';
import styles from '../Dashboard.module.css';
import own from './Apps.module.css';

// The drawer (rsuite, the store search) is loaded when it is first opened.
const AddAppDrawer = dynamic(() => import('./AddAppDrawer'), { ssr: false });
const CredentialsDrawer = dynamic(() => import('./CredentialsDrawer'), { ssr: false });

function countriesText(app: OrgApp): string {
  if (app.app_store !== 'apple_app_store') return 'All (read in English)';
  if (app.countries.length > 3) return `${app.countries.length} countries`;
  return app.countries.map(storefrontName).join(', ');
}

function AppRow({ app, canManage, onCredentials }: { app: OrgApp; canManage: boolean; onCredentials: () => void }) {
  const remove = useRemoveOrgApp({ onSuccess: () => toast.success(`${app.title} removed`), onError: errorToast });
  return (
    <tr>
      <th scope="row">
        <span className={own.appCell}>
          {app.icon_url ? <Image unoptimized src={app.icon_url} alt="" width={32} height={32} className={own.icon} /> : <span aria-hidden="true" className={own.iconFallback}>{app.title.slice(0, 1)}</span>}
          <span>
            <Link href={`/dashboard/reviews?app=${encodeURIComponent(app.key)}`}>{app.title}</Link>
            <span className={own.store}>
              {APP_STORE_NAMES[app.app_store]}
              {app.credentials ? ' · official API' : ''}
              {app.paused ? ' · paused by the plan' : ''}
            </span>
          </span>
        </span>
      </th>
      <td>{countriesText(app)}</td>
      <td>{app.rating === null ? '—' : app.rating.toFixed(1)}</td>
      <td>{app.review_count.toLocaleString()}</td>
      <td>{app.reviews_this_week.toLocaleString()}</td>
      <td>
        {app.last_review ? (
          <>
            <Stars rating={app.last_review.rating} /> <time dateTime={app.last_review.at}>{date(app.last_review.at)}</time>
          </>
        ) : (
          <span className={styles.muted}>None yet</span>
        )}
      </td>
      <td className={own.actions}>
        <Link href={`/dashboard/apps/${encodeURIComponent(app.key)}`} aria-label={`Ratings and trends of ${app.title}`}>
          Trends
        </Link>
        {canManage ? (
          <button type="button" className={styles.quiet} aria-label={`Store credentials of ${app.title}`} onClick={onCredentials}>
            Store credentials
          </button>
        ) : null}
        {canManage ? (
          <ConfirmButton label={`Remove ${app.title}`} pending={remove.isPending} question={`Remove ${app.title}? Its reviews stay, but new ones are no longer collected for your organisation.`} onConfirm={() => remove.mutate(app.key)}>
            Remove
          </ConfirmButton>
        ) : null}
      </td>
    </tr>
  );
}

export default function AppsPage() {
  const org = useOrganisation();
  const apps = useOrgApps();
  const [adding, setAdding] = useState(false);
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  // The app whose credentials drawer is open (its key: the entry itself is read fresh from the list).
  const [credentialsOf, setCredentialsOf] = useState<string | null>(null);
  const credentialsApp = apps.data?.find((a) => a.key === credentialsOf) ?? null;
  const canManage = org.data ? atLeast(org.data.role, 'admin') : false;
  return (
    <section className={styles.section} aria-labelledby="apps-heading">
      <div className={own.header}>
        <h2 id="apps-heading" className={styles.sectionTitle}>
          Your apps
        </h2>
        {canManage ? (
          <button
            type="button"
            className={styles.button}
            onClick={() => {
              setDrawerLoaded(true);
              setAdding(true);
            }}
          >
            Add app
          </button>
        ) : null}
      </div>
      {org.data && !canManage ? <p className={styles.muted}>Admins and the owner add and remove apps.</p> : null}
      {apps.isPending ? (
        <Skeleton label="Loading your apps" />
      ) : apps.isError ? (
        <p role="alert">{apps.error.message}</p>
      ) : apps.data.length === 0 ? (
        <p className={styles.muted}>No apps yet. {canManage ? 'Add one to collect its reviews here.' : 'Ask an admin to add one.'}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">Your organisation&apos;s apps</caption>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Countries</th>
                <th scope="col">Rating</th>
                <th scope="col">Reviews</th>
                <th scope="col">This week</th>
                <th scope="col">Last review</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data.map((a) => (
                <AppRow key={a.key} app={a} canManage={canManage} onCredentials={() => setCredentialsOf(a.key)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {drawerLoaded ? <AddAppDrawer open={adding} onClose={() => setAdding(false)} /> : null}
      {credentialsOf !== null ? <CredentialsDrawer app={credentialsApp} onClose={() => setCredentialsOf(null)} /> : null}
    </section>
  );
}
