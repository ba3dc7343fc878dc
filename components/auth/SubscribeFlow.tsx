/**
 * /subscribe?org_id=… (docs/PRODUCT.md, Subscribe links): links from the CRM open billing for an organisation. Only an org_id
 * starting with 'org_' triggers the org authentication call (POST v1/auth/token/crm-exchange); anything else shows
 * nothing. On success the billing-only token and the owner's masked address (o***@example.com: the link may have
 * been seen by anyone) are stored as the auth data and the plans are offered; choosing one asks the billing API for a
 * checkout page (POST v1/org/billing/purchase, bearer) — the only thing that token can do. A failed org call shows
 * the product's toast, 'Some Error Occured'.
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useState } from 'react';
import toast from '@/lib/hotToast';
import type { Plan } from '@/components/marketing/types';
import { MESSAGES } from '@/lib/messages';
import { topWindow } from '@/lib/navigation';
import { useCrmExchangeQuery } from '@/lib/queries/auth';
import { useCheckout } from '@/lib/queries/billing';
import { useAuthStore } from '@/stores/auth';
import styles from './AuthForms.module.css';

function isOrgId(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('org_');
}

function PlanCard({ plan, authToken }: { plan: Plan; authToken: string }) {
  const [error, setError] = useState('');
  const checkout = useCheckout(authToken, {
    onMutate: () => setError(''),
    onSuccess: (url) => topWindow.navigate(url),
    onError: (e) => setError(e.message),
  });
  return (
    <li className={`${styles.plan} ${plan.highlighted ? styles.planHighlighted : ''}`}>
      <h2 className={styles.planName}>{plan.name}</h2>
      <p className={styles.planPrice}>
        {plan.price_monthly === null ? 'Custom' : `$${plan.price_monthly}`} <small>{plan.price_note}</small>
      </p>
      <p className={styles.planTagline}>{plan.tagline}</p>
      <ul className={styles.planFeatures}>
        <li>{plan.apps}</li>
        <li>{plan.channels}</li>
        {plan.features.slice(0, 4).map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      {plan.price_monthly === null ? (
        <Link href="/contact" className={styles.primary}>
          Talk to us
        </Link>
      ) : (
        <button type="button" className={styles.primary} disabled={checkout.isPending} aria-busy={checkout.isPending} onClick={() => checkout.mutate(plan.id)}>
          {checkout.isPending ? 'Opening checkout…' : `Choose ${plan.name}`}
        </button>
      )}
      {error ? (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
    </li>
  );
}

export default function SubscribeFlow({ plans }: { plans: Plan[] }) {
  const router = useRouter();
  const raw = router.query.org_id;
  const orgId = Array.isArray(raw) ? raw[0] : raw;
  const valid = router.isReady && isOrgId(orgId);
  const setAuthData = useAuthStore((s) => s.setAuthData);

  const exchange = useCrmExchangeQuery(orgId, valid);
  const account = exchange.data ?? null;

  useEffect(() => {
    if (!exchange.isSuccess) return;
    if (account) setAuthData({ authToken: account.authToken, email: account.email });
    else toast.error(MESSAGES.orgAuthFailed, { id: 'org-auth-failed' });
  }, [exchange.isSuccess, account, setAuthData]);

  // Without an org_id starting with 'org_', nothing is shown at all.
  if (!valid) return null;
  if (exchange.isPending) {
    return (
      <div className={styles.page}>
        <p role="status" className={`${styles.card} ${styles.lead}`}>
          Opening billing for your organisation…
        </p>
      </div>
    );
  }
  if (!account) {
    return (
      <div className={styles.page}>
        <div className={styles.card}>
          <h1 className={styles.heading}>Billing could not be opened</h1>
          <p className={styles.lead}>
            This billing link did not work. Ask for a new one, or <Link href="/contact">contact us</Link>.
          </p>
        </div>
      </div>
    );
  }
  const offered = plans.filter((p) => p.price_monthly !== 0);
  return (
    <div className={styles.page}>
      <div className={`${styles.card} ${styles.wide}`}>
        <h1 className={styles.heading}>Choose your plan</h1>
        <p className={styles.lead}>
          Billing for <strong>{account.email}</strong>. You will be taken to a secure checkout page to pay.
        </p>
        <ul className={styles.plans}>
          {offered.map((plan) => (
            <PlanCard key={plan.id} plan={plan} authToken={account.authToken} />
          ))}
        </ul>
      </div>
    </div>
  );
}
