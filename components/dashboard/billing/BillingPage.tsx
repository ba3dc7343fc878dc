/**
 * /dashboard/billing: the organisation's plan, its subscription's state and renewal date, and each limit with what is
 * used of it (this calendar month for monthly allowances). Owners buy or change the plan (Stripe Checkout) and open
 * the customer portal for invoices, card and cancelling; admins read; members are told who can. On a server without
 * billing the page says so: every organisation has the server's plan and nothing can be bought. A failed payment shows
 * when its grace period ends; over the plan's limits, the owner chooses what stays active (ChooseActive).
 */
import type { BillingOverview } from '@/lib/api/billing';
import { topWindow } from '@/lib/navigation';
import { useBilling, useBillingPortal, usePlanCheckout } from '@/lib/queries/billing';
import { useOrganisation } from '@/lib/queries/team';
import { atLeast, roleLabel } from '@/shared/orgRoles';
import { LIMIT_KEYS, LIMIT_WORDS, PLANS, planById, type LimitKey } from '@/shared/plans';
import { date, errorToast, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './Billing.module.css';
import ChooseActive, { needsChoice } from './ChooseActive';

const STATUS_WORDS: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment overdue: your card will be tried again',
  canceled: 'Canceled',
  unpaid: 'Unpaid',
  incomplete: 'Waiting for the first payment',
  incomplete_expired: 'Checkout expired',
  paused: 'Paused',
};

const count = (key: LimitKey, n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? LIMIT_WORDS[key].one : LIMIT_WORDS[key].many}`;

/** One limit: its name, "2 of 3 apps" (or unlimited / not included), and a meter when there is a ceiling. */
function Usage({ k, used, limit, planName }: { k: LimitKey; used: number; limit: number | null; planName: string }) {
  const labelId = `usage-${k}`;
  const words = LIMIT_WORDS[k];
  const text =
    limit === null
      ? `${count(k, used)} — unlimited`
      : limit === 0
        ? `Not included in ${planName}`
        : `${used.toLocaleString('en-US')} of ${count(k, limit)}${words.perMonth ? ' this month' : ''}`;
  const full = limit !== null && limit > 0 && used >= limit;
  return (
    <li className={own.usage}>
      <div className={own.usageHead}>
        <span id={labelId} className={own.usageLabel}>
          {words.label}
        </span>
        <span className={full ? own.full : undefined}>{text}</span>
      </div>
      {limit !== null && limit > 0 ? (
        <meter className={own.meter} aria-labelledby={labelId} aria-valuetext={text} min={0} max={limit} value={Math.min(used, limit)} />
      ) : null}
    </li>
  );
}

function PlanSummary({ billing }: { billing: BillingOverview }) {
  const renewal = billing.current_period_end;
  const ending = billing.status === 'canceled' || billing.status === 'unpaid';
  return (
    <dl className={own.facts}>
      <div>
        <dt>Plan</dt>
        <dd>{billing.plan_name}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>{billing.billing_enabled ? (STATUS_WORDS[billing.status] ?? billing.status) : 'Billing is off on this server'}</dd>
      </div>
      {billing.billing_enabled ? (
        <div>
          <dt>{ending ? 'Ends' : 'Renews'}</dt>
          <dd>{renewal ? <time dateTime={renewal}>{date(renewal)}</time> : billing.plan === 'free' ? 'Never: the Free plan is free' : '—'}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** Owners: a button for each plan this server sells above the current one, and the customer portal. */
function OwnerActions({ billing }: { billing: BillingOverview }) {
  const checkout = usePlanCheckout({ onSuccess: (url) => topWindow.navigate(url), onError: errorToast });
  const portal = useBillingPortal({ onSuccess: (url) => topWindow.navigate(url), onError: errorToast });
  const current = PLANS.findIndex((p) => p.id === billing.plan);
  const offers = billing.purchasable.map((id) => planById(id)!).filter((p) => PLANS.indexOf(p) > current);
  const busy = checkout.isPending || portal.isPending;
  return (
    <section className={styles.section} aria-labelledby="billing-change-heading">
      <h2 id="billing-change-heading" className={styles.sectionTitle}>
        Change your plan
      </h2>
      {offers.length ? (
        <ul className={own.offers}>
          {offers.map((p) => (
            <li key={p.id}>
              <button type="button" className={styles.button} disabled={busy} aria-busy={checkout.isPending && checkout.variables === p.id} onClick={() => checkout.mutate(p.id)}>
                Upgrade to {p.name} — ${p.price_monthly} a month
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>There is no plan above yours to buy here. Contact us for more.</p>
      )}
      <p className={styles.muted}>Invoices, your card, downgrades and cancelling are in the billing portal.</p>
      <button type="button" className={styles.quiet} disabled={busy} aria-busy={portal.isPending} onClick={() => portal.mutate()}>
        Open the billing portal
      </button>
    </section>
  );
}

export default function BillingPage() {
  const org = useOrganisation();
  const canRead = !!org.data && atLeast(org.data.role, 'admin');
  const billing = useBilling(canRead);
  if (org.isPending || (canRead && billing.isPending)) return <Skeleton rows={4} label="Loading billing" />;
  if (org.isError) return <p role="alert">{org.error.message}</p>;
  if (!canRead) {
    return <p className={styles.muted}>Only admins and the owner can see billing. You are a {roleLabel(org.data.role).toLowerCase()}.</p>;
  }
  if (billing.isError) return <p role="alert">{billing.error.message}</p>;
  const b = billing.data!;
  return (
    <>
      <section className={styles.section} aria-labelledby="billing-plan-heading">
        <h2 id="billing-plan-heading" className={styles.sectionTitle}>
          Your plan
        </h2>
        <PlanSummary billing={b} />
        {b.grace_ends_at ? (
          <p role="status" className={own.warning}>
            The last payment failed. Your plan stays until <time dateTime={b.grace_ends_at}>{date(b.grace_ends_at)}</time> while the card is tried again; then the Free
            plan&apos;s limits apply and what is over them is paused (nothing is deleted). Update your card in the billing portal.
          </p>
        ) : null}
        {/* A second subscription (a checkout page paid after another purchase) was cancelled: the server's words. */}
        {b.refused_subscriptions.map((r) => (
          <p key={r.refused_at} role="status" className={own.warning}>
            {r.message}
          </p>
        ))}
        {b.billing_enabled ? null : (
          <p className={styles.muted}>
            {b.plan === 'unlimited'
              ? 'Billing is off on this server: there is nothing to buy, and no limit applies.'
              : `Billing is off on this server: there is nothing to buy, and every organisation has the limits of the ${b.plan_name} plan.`}
          </p>
        )}
      </section>
      <section className={styles.section} aria-labelledby="billing-usage-heading">
        <h2 id="billing-usage-heading" className={styles.sectionTitle}>
          Usage
        </h2>
        {/* API calls are limited per key's rate; ARB does not count them per month yet, so there is no use to show. */}
        <ul className={own.usages}>
          {LIMIT_KEYS.map((k) => (
            <Usage key={k} k={k} used={b.usage[k]} limit={b.limits[k]} planName={b.plan_name} />
          ))}
        </ul>
      </section>
      {needsChoice(b) ? <ChooseActive billing={b} canManage={b.can_manage} /> : null}
      {b.billing_enabled ? (
        b.can_manage ? (
          <OwnerActions billing={b} />
        ) : (
          <p className={styles.muted}>Only the owner can change the plan.</p>
        )
      ) : null}
    </>
  );
}

