import { screen, waitFor } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fail, notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import SubscribeFlow from '@/components/auth/SubscribeFlow';
import type { Plan } from '@/components/marketing/types';
import { topWindow } from '@/lib/navigation';
import { useAuthStore } from '@/stores/auth';

const plan = (id: string, name: string, price: number | null): Plan => ({
  id,
  name,
  price_monthly: price,
  price_note: price === null ? 'per year' : 'per month',
  tagline: `${name} tagline`,
  apps: '3 apps',
  channels: '5 channels',
  features: ['Replies'],
  cta_label: 'Start',
  cta_href: '/try-free',
  highlighted: false,
});
const PLANS = [plan('free', 'Free', 0), plan('pro', 'Pro', 29), plan('enterprise', 'Enterprise', null)];

let fake: ApiFake | undefined;
beforeEach(() => resetStores());
afterEach(async () => {
  fake?.restore();
  await fake?.close();
  fake = undefined;
});

const ui = (
  <>
    <SubscribeFlow plans={PLANS} />
    <Toaster />
  </>
);

describe('/subscribe', () => {
  test.each(['/subscribe', '/subscribe?org_id=', '/subscribe?org_id=123', '/subscribe?org_id=ORG_1', '/subscribe?org_id=user_org_1'])(
    'shows nothing and calls nothing for %s',
    async (url) => {
      fake = await startApiFake([route('POST', '/api/v1/auth/token/crm-exchange', ok({ authToken: 't', email: 'e@x.co' }))]);
      const { container } = render(ui, { url });
      await new Promise((r) => setTimeout(r, 50));
      expect(container.textContent).toBe('');
      expect(fake.requests.filter(notPreflight)).toHaveLength(0);
    },
  );

  test('org_… signs in with a billing token, shows the masked owner address and offers the paid plans; a plan opens checkout', async () => {
    fake = await startApiFake([
      route('POST', '/api/v1/auth/token/crm-exchange', ok({ authToken: 'billing.jwt', email: 'o***@acme.example' })),
      route('POST', '/api/v1/org/billing/purchase', ok({ url: 'https://checkout.example/session/1' })),
    ]);
    const navigate = vi.spyOn(topWindow, 'navigate').mockImplementation(() => undefined);
    const { user } = render(ui, { url: '/subscribe?org_id=org_42' });
    expect(await screen.findByRole('heading', { name: 'Choose your plan' })).toBeInTheDocument();
    expect(screen.getByText('o***@acme.example')).toBeInTheDocument();
    expect(useAuthStore.getState().authData).toEqual({ authToken: 'billing.jwt', email: 'o***@acme.example' });
    expect(JSON.parse(fake.requests.filter(notPreflight)[0].body)).toEqual({ org_id: 'org_42' });
    expect(screen.queryByRole('button', { name: 'Choose Free' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Talk to us' })).toHaveAttribute('href', '/contact');

    await user.click(screen.getByRole('button', { name: 'Choose Pro' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://checkout.example/session/1'));
    const purchase = fake.requests.filter((r) => notPreflight(r) && r.path === '/api/v1/org/billing/purchase')[0];
    expect(purchase.headers.authorization).toBe('Bearer billing.jwt');
    expect(JSON.parse(purchase.body)).toEqual({ price_id: 'pro' });
    navigate.mockRestore();
  });

  test('billing switched off: the server’s message is shown', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fake = await startApiFake([
      route('POST', '/api/v1/auth/token/crm-exchange', ok({ authToken: 'billing.jwt', email: 'owner@acme.example' })),
      route('POST', '/api/v1/org/billing/purchase', fail(503, 'billing_disabled', 'Billing is not set up on this server yet.')),
    ]);
    const { user } = render(ui, { url: '/subscribe?org_id=org_42' });
    await user.click(await screen.findByRole('button', { name: 'Choose Pro' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Billing is not set up on this server yet.');
    consoleError.mockRestore();
  });

  test('a failed org authentication shows the toast “Some Error Occured”', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fake = await startApiFake([route('POST', '/api/v1/auth/token/crm-exchange', fail(404, 'not_found', 'No such organisation.'))]);
    render(ui, { url: '/subscribe?org_id=org_missing' });
    expect(await screen.findByText('Some Error Occured')).toBeInTheDocument();
    expect(useAuthStore.getState().authData).toEqual({});
    expect(consoleError).toHaveBeenCalledWith('Serious Error AuthExchange', expect.anything());
    consoleError.mockRestore();
  });
});
