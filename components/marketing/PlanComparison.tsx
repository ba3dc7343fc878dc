/** /pricing: every limit and feature of every plan side by side, as the plan catalogue defines them. */
import type { ComparisonRow, Plan } from './types';
import styles from './PricingPlans.module.css';

export default function PlanComparison({ plans, rows }: { plans: Plan[]; rows: ComparisonRow[] }) {
  return (
    <div className={styles.compareWrap} tabIndex={0} role="region" aria-labelledby="compare-plans">
      <h2 id="compare-plans" className={styles.compareTitle}>
        Compare plans
      </h2>
      <table className={styles.compare}>
        <thead>
          <tr>
            <td />
            {plans.map((p) => (
              <th key={p.id} scope="col">
                {p.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {row.values.map((v, i) => (
                <td key={plans[i].id}>{v}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
