/**
 * The rendered /pricing page and the plan catalogue (shared/plans.ts) agree: every plan's card shows its price, its
 * app and channel limits and its Ask ARB allowance, and the comparison shows every limit and feature of every plan.
 * The expected words are written from the catalogue's numbers here, not with the page's own formatting.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { render } from '@/tests/helpers/render';
import PricingPage from '@/components/marketing/PricingPage';
import { getPricingDoc } from '@/server/content';
import { FEATURE_KEYS, FEATURE_WORDS, LIMIT_KEYS, LIMIT_WORDS, PLANS, type LimitKey } from '@/shared/plans';

const expected = (key: LimitKey, v: number | null) =>
  v === null ? 'Unlimited' : v === 0 ? 'None' : `${v.toLocaleString('en-US')} ${v === 1 ? LIMIT_WORDS[key].one : LIMIT_WORDS[key].many}`;

function renderPricing() {
  render(<PricingPage doc={getPricingDoc()} />);
}

describe('/pricing renders the plan catalogue', () => {
  test('each plan card: name, price, apps, channels and the Ask ARB allowance', () => {
    renderPricing();
    const cards = within(screen.getByRole('list', { name: 'Plans' })).getAllByRole('listitem').filter((li) => li.querySelector('h2'));
    expect(cards.map((c) => c.querySelector('h2')!.textContent)).toEqual(PLANS.map((p) => p.name));
    PLANS.forEach((plan, i) => {
      const card = within(cards[i]);
      expect(card.getByText(`$${plan.price_monthly}`)).toBeTruthy();
      expect(card.getByText('Apps').nextElementSibling!.textContent).toBe(expected('apps', plan.limits.apps));
      expect(card.getByText('Channels').nextElementSibling!.textContent).toBe(expected('channels', plan.limits.channels));
      const ask = plan.limits.ask_arb_questions;
      const askLine = cards[i].textContent!.match(/Ask ARB — ([\d,]+) questions a month/);
      const previous = PLANS[i - 1]?.limits.ask_arb_questions;
      if (ask && ask !== previous) expect(askLine?.[1].replace(/,/g, ''), plan.name).toBe(String(ask));
      else expect(askLine, plan.name).toBeNull();
    });
  });

  test('the comparison table: every limit and every feature of every plan', () => {
    renderPricing();
    const table = within(screen.getByRole('region', { name: 'Compare plans' })).getByRole('table');
    const heads = within(table).getAllByRole('columnheader').map((th) => th.textContent);
    expect(heads).toEqual(PLANS.map((p) => p.name));
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (label: string) => {
      const row = rows.find((r) => within(r).getByRole('rowheader').textContent === label);
      expect(row, label).toBeTruthy();
      return within(row!).getAllByRole('cell').map((td) => td.textContent);
    };
    for (const key of LIMIT_KEYS) expect(cells(LIMIT_WORDS[key].label), key).toEqual(PLANS.map((p) => expected(key, p.limits[key])));
    for (const key of FEATURE_KEYS) expect(cells(FEATURE_WORDS[key].label), key).toEqual(PLANS.map((p) => (p.features[key] ? 'Included' : 'Not included')));
    expect(rows).toHaveLength(LIMIT_KEYS.length + FEATURE_KEYS.length);
  });

  test('every dollar amount in the page’s own words (description, lead, body) is a catalogue price', () => {
    const doc = getPricingDoc();
    const prices = new Set(PLANS.map((p) => p.price_monthly));
    const amounts = [...`${doc.description} ${doc.lead} ${doc.html}`.matchAll(/\$(\d[\d,]*)/g)].map((m) => Number(m[1].replace(/,/g, '')));
    expect(amounts.length).toBeGreaterThan(0);
    for (const a of amounts) expect(prices, `$${a}`).toContain(a);
  });
});
