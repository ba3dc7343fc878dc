/** The plan cards of /pricing; the plans, their prices and limits come from the plan catalogue (shared/plans.ts). */
import Link from 'next/link';
import buttons from './buttons.module.css';
import type { Plan } from './types';
import styles from './PricingPlans.module.css';

export function formatPrice(plan: Plan): string {
  return plan.price_monthly === null ? 'Custom' : `$${plan.price_monthly}`;
}

export default function PricingPlans({ plans }: { plans: Plan[] }) {
  return (
    <ul className={styles.plans} aria-label="Plans">
      {plans.map((plan) => (
        <li key={plan.id} className={plan.highlighted ? `${styles.plan} ${styles.highlighted}` : styles.plan}>
          {plan.highlighted ? <p className={styles.badge}>Most popular</p> : null}
          <h2 className={styles.name}>{plan.name}</h2>
          <p className={styles.tagline}>{plan.tagline}</p>
          <p className={styles.price}>
            <span className={styles.amount}>{formatPrice(plan)}</span>{' '}
            <span className={styles.note}>{plan.price_note}</span>
          </p>
          <dl className={styles.limits}>
            <div>
              <dt>Apps</dt>
              <dd>{plan.apps}</dd>
            </div>
            <div>
              <dt>Channels</dt>
              <dd>{plan.channels}</dd>
            </div>
          </dl>
          <ul className={styles.features}>
            {plan.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
          <Link
            href={plan.cta_href}
            prefetch={false}
            className={`${plan.highlighted ? buttons.primary : buttons.secondary} ${styles.cta}`}
            aria-label={`${plan.cta_label} — ${plan.name} plan`}
          >
            {plan.cta_label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
