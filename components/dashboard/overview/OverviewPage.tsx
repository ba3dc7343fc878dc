/**
 * /dashboard, the overview (GET v1/org/overview, server/overview): "Needs attention" (each item a link to where it is
 * fixed), then one card per app — the store's own rating and its change over 7 days, the average of the written
 * reviews over 7 and 30 days against the days before, volume, the share of 1–2★, unanswered reviews, the median time
 * to reply, and the rising and critical terms — and, until the organisation has an app, a channel and a team, the
 * setup checklist (first, when it has no app yet). The two ratings are labelled apart on purpose: the store's counts
 * every rating, with or without text; the review average only the written reviews ARB collected.
 */
import AppIcon from '@/components/common/AppIcon';
import Link from 'next/link';
import type { AttentionItem, Overview, OverviewApp } from '@/lib/api/overview';
import { useOverview } from '@/lib/queries/overview';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { date, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './Overview.module.css';
import { count, duration, percent, signed } from './format';

type Period = OverviewApp['review_average']['last_7_days'];

function Change({ value, digits = 1, against }: { value: number | null; digits?: number; against: string }) {
  if (value === null) return null;
  const look = Number(value.toFixed(digits)) > 0 ? own.up : Number(value.toFixed(digits)) < 0 ? own.down : '';
  return (
    <span className={own.sub}>
      <span className={look}>{signed(value, digits)}</span> {against}
    </span>
  );
}

function StoreRating({ app }: { app: OverviewApp }) {
  const r = app.store_rating;
  return (
    <div className={own.figure}>
      <dt>Store rating</dt>
      <dd>
        {r && r.rating !== null ? (
          <>
            {r.rating.toFixed(1)}★
            {r.ratings_count !== null ? <span className={own.sub}>{count(r.ratings_count)} ratings in the store</span> : null}
            <Change value={r.change_7d} digits={2} against="in 7 days" />
          </>
        ) : (
          <span className={own.sub}>Not read from the store yet</span>
        )}
      </dd>
    </div>
  );
}

function ReviewAverage({ label, p, days }: { label: string; p: Period; days: number }) {
  return (
    <div className={own.figure}>
      <dt>{label}</dt>
      <dd>
        {p.average !== null ? `${p.average.toFixed(2)}★` : '—'}
        <span className={own.sub}>
          {count(p.reviews)} {p.reviews === 1 ? 'review' : 'reviews'}
        </span>
        <Change value={p.change} digits={2} against={`vs the ${days} days before`} />
      </dd>
    </div>
  );
}

function Terms({ app }: { app: OverviewApp }) {
  if (!app.terms) return <p className={own.sub}>Counting the words of this week’s reviews…</p>;
  const rows: Array<[string, NonNullable<OverviewApp['terms']>['rising']]> = [
    ['Rising', app.terms.rising],
    ['Critical', app.terms.critical],
  ];
  return (
    <div className={own.terms}>
      {rows.map(([label, list]) => (
        <p key={label}>
          <span className={own.termLabel}>{label} this week:</span>
          {list.length ? (
            <span className={own.chips}>
              {list.map((t) => (
                <Link key={t.term} href={t.href} className={own.chip} aria-label={`${t.term}: ${t.reviews} reviews this week, ${t.previous_reviews} the week before`}>
                  {t.term} ({t.reviews})
                </Link>
              ))}
            </span>
          ) : (
            <span className={own.none}>none</span>
          )}
        </p>
      ))}
    </div>
  );
}

function AppCard({ app }: { app: OverviewApp }) {
  const headingId = `app-${app.key}`;
  const week = app.review_average.last_7_days;
  const month = app.review_average.last_30_days;
  return (
    <li>
      <article className={own.card} aria-labelledby={headingId}>
        <div className={own.cardHead}>
          <AppIcon src={app.icon_url} title={app.title} size={36} className={own.icon} fallbackClassName={own.iconFallback} />
          <div>
            <h3 id={headingId}>
              <Link href={app.links.reviews}>{app.title}</Link>
            </h3>
            <span className={own.store}>
              {APP_STORE_NAMES[app.store as keyof typeof APP_STORE_NAMES] ?? app.store}
              {app.paused ? ' · paused by the plan' : ''}
            </span>
          </div>
        </div>
        <dl className={own.figures}>
          <StoreRating app={app} />
          <ReviewAverage label="Review average, 7 days" p={week} days={7} />
          <ReviewAverage label="Review average, 30 days" p={month} days={30} />
          <div className={own.figure}>
            <dt>1–2★ share, 30 days</dt>
            <dd>
              {month.low_share === null ? '—' : percent(month.low_share)}
              <span className={own.sub}>7 days: {week.low_share === null ? '—' : percent(week.low_share)}</span>
            </dd>
          </div>
          <div className={own.figure}>
            <dt>Unanswered, 30 days</dt>
            <dd>
              {count(app.unanswered_30d)}
              <span className={own.sub}>{count(app.unanswered_negative_30d)} of them 1–2★</span>
            </dd>
          </div>
          <div className={own.figure}>
            <dt>Median time to reply</dt>
            <dd>
              {app.reply_time.median_seconds === null ? '—' : duration(app.reply_time.median_seconds)}
              <span className={own.sub}>{app.reply_time.replies ? `over ${count(app.reply_time.replies)} replies, 30 days` : 'no replies in 30 days'}</span>
            </dd>
          </div>
        </dl>
        <Terms app={app} />
        <div className={own.links}>
          <Link href={app.links.reviews}>Reviews</Link>
          {app.unanswered_30d ? <Link href={app.links.unanswered}>Unanswered</Link> : null}
          <Link href={app.links.trends} aria-label={`Ratings and trends of ${app.title}`}>
            Trends
          </Link>
        </div>
      </article>
    </li>
  );
}

function NeedsAttention({ items }: { items: AttentionItem[] }) {
  return (
    <section className={styles.section} aria-labelledby="attention-heading">
      <h2 id="attention-heading" className={styles.sectionTitle}>
        Needs attention
      </h2>
      {items.length === 0 ? (
        <p className={styles.muted}>Nothing right now: no unanswered 1–2★ reviews this month, no open alerts, every destination delivering.</p>
      ) : (
        <ul className={own.attention}>
          {items.map((a, i) => (
            <li key={`${a.kind}-${a.app_key ?? ''}-${i}`} className={own.item}>
              <div className={own.itemText}>
                <p className={own.itemTitle}>{a.title}</p>
                <p className={own.itemDetail}>{a.detail}</p>
              </div>
              <Link href={a.href} className={own.itemAction} aria-label={`${a.action}: ${a.title}`}>
                {a.action}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const STEPS: Array<{ key: 'apps' | 'channel' | 'team'; title: string; text: string; href: string; action: string }> = [
  { key: 'apps', title: 'Add an app', text: 'Search the App Store or Google Play: its reviews start arriving here.', href: '/dashboard/apps', action: 'Add an app' },
  { key: 'channel', title: 'Connect a channel', text: 'Slack, Teams, Discord, e-mail or a webhook: new reviews are posted there.', href: '/dashboard/destinations', action: 'Connect a channel' },
  { key: 'team', title: 'Invite the team', text: 'Colleagues read and reply to reviews with you.', href: '/dashboard/team', action: 'Invite the team' },
];

function SetupChecklist({ setup }: { setup: Overview['setup'] }) {
  const done = STEPS.filter((s) => setup[s.key]).length;
  return (
    <section className={styles.section} aria-labelledby="setup-heading">
      <h2 id="setup-heading" className={styles.sectionTitle}>
        Get started
      </h2>
      <p className={styles.muted}>
        {done} of {STEPS.length} steps done.
      </p>
      <ol className={own.steps}>
        {STEPS.map((s, i) => (
          <li key={s.key} className={`${own.step} ${setup[s.key] ? own.done : ''}`}>
            <span className={own.mark} aria-hidden="true">
              {setup[s.key] ? '✓' : i + 1}
            </span>
            <div>
              <span className={own.stepTitle}>
                {setup[s.key] ? (
                  <>
                    {s.title} <span className="visually-hidden">(done)</span>
                  </>
                ) : (
                  <Link href={s.href}>{s.action}</Link>
                )}
              </span>
              <p>{s.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

export default function OverviewPage() {
  const overview = useOverview();
  if (overview.isPending) return <Skeleton rows={4} label="Loading the overview" height={120} />;
  if (overview.isError) return <p role="alert">{overview.error.message}</p>;
  const o = overview.data;
  if (o.apps.length === 0) return <SetupChecklist setup={o.setup} />;
  return (
    <>
      <NeedsAttention items={o.attention} />
      <section aria-labelledby="apps-heading">
        <h2 id="apps-heading" className={styles.sectionTitle}>
          Your apps
        </h2>
        <p className={own.explain}>
          <strong>Store rating</strong>: the store’s own, from every rating, with or without text. <strong>Review average</strong>: the stars of the written
          reviews ARB collected. Figures as of <time dateTime={o.generated_at}>{date(o.generated_at)}</time>; days are UTC, today included.
        </p>
        <ul className={own.cards}>
          {o.apps.map((a) => (
            <AppCard key={a.key} app={a} />
          ))}
        </ul>
      </section>
      {o.setup.complete ? null : <SetupChecklist setup={o.setup} />}
    </>
  );
}
