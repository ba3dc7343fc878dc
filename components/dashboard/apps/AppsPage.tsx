/**
 * /dashboard/apps: the organisation's apps with the store's own rating (and its count), the average of the written
 * reviews ARB stored — two different numbers, each explained in its column's tooltip —, review count, reviews this
 * week and last review; admins
 * add apps (by search, like the home page), store each app's store credentials (CredentialsDrawer) and remove apps. The server decides who may do what; the page only hides
 * what the caller's role cannot do.
 */
import dynamic from 'next/dynamic';
import AppIcon from '@/components/common/AppIcon';
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
import { ColumnTip } from './ColumnTip';
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

/** What the two rating columns mean: in their tooltips, and under the table on a phone (where the headers are hidden). */
const STORE_RATING_TIP =
  "The store's own rating and how many people rated the app, with or without a written review, read once a day. App Store: the countries you watch, each weighted by its number of ratings. Google Play: its worldwide rating.";
const REVIEW_AVERAGE_TIP =
  'The average stars of the written reviews ARB collected for this app. It often differs from the store rating: most people rate without writing a review.';

function StoreRatingCell({ app }: { app: OrgApp }) {
  const s = app.store_rating;
  if (!s) return <span className={styles.muted}>Not read yet</span>;
  if (s.rating === null) return <span className={styles.muted}>No ratings</span>;
  return (
    <span className={own.figure}>
      <span>
        {s.rating.toFixed(1)}
        <span aria-hidden="true">★</span>
      </span>
      {s.ratings_count !== null ? <span className={own.sub}>{`${s.ratings_count.toLocaleString()} ${s.ratings_count === 1 ? 'rating' : 'ratings'}`}</span> : null}
    </span>
  );
}

function AppRow({ app, canManage, onCredentials }: { app: OrgApp; canManage: boolean; onCredentials: () => void }) {
  const remove = useRemoveOrgApp({ onSuccess: () => toast.success(`${app.title} removed`), onError: errorToast });
  return (
    <tr>
      <th scope="row">
        <span className={own.appCell}>
          <AppIcon src={app.icon_url} title={app.title} size={32} className={own.icon} fallbackClassName={own.iconFallback} />
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
      <td data-label="Countries">{countriesText(app)}</td>
      <td data-label="Store rating">
        <StoreRatingCell app={app} />
      </td>
      <td data-label="Review average">{app.rating === null ? <span className={styles.muted}>No reviews</span> : app.rating.toFixed(1)}</td>
      <td data-label="Reviews">{app.review_count.toLocaleString()}</td>
      <td data-label="This week">{app.reviews_this_week.toLocaleString()}</td>
      <td data-label="Last review">
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
        <div className={`${styles.tableWrap} ${own.appsWrap}`}>
          <table className={`${styles.table} ${own.appsTable}`}>
            <caption className="visually-hidden">Your organisation&apos;s apps</caption>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Countries</th>
                <th scope="col">
                  <span className={own.headWithTip}>
                    Store rating
                    <ColumnTip id="tip-store-rating" label="Store rating">
                      {STORE_RATING_TIP}
                    </ColumnTip>
                  </span>
                </th>
                <th scope="col">
                  <span className={own.headWithTip}>
                    Review average
                    <ColumnTip id="tip-review-average" label="Review average">
                      {REVIEW_AVERAGE_TIP}
                    </ColumnTip>
                  </span>
                </th>
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
          <dl className={own.legend}>
            <dt>Store rating</dt>
            <dd>{STORE_RATING_TIP}</dd>
            <dt>Review average</dt>
            <dd>{REVIEW_AVERAGE_TIP}</dd>
          </dl>
        </div>
      )}
      {drawerLoaded ? <AddAppDrawer open={adding} onClose={() => setAdding(false)} /> : null}
      {credentialsOf !== null ? <CredentialsDrawer app={credentialsApp} onClose={() => setCredentialsOf(null)} /> : null}
    </section>
  );
}
