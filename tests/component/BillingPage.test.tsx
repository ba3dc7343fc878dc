/**
 * The dashboard's Billing page against a loopback API: the plan, its state and renewal, each limit as a labelled meter
 * with its use in words, the owner's upgrade (a checkout for the plan, then the browser goes to Stripe), read-only for
 * admins, a note for members, "billing is off" on a server without Stripe, the server's refusal as a toast, and a plan
 * limit's toast anywhere in the dashboard with an Upgrade link.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { describe, expect, test, vi } from 'vitest';
import { fail, notPreflight, ok, route } from './support/apiFake';
import { org as anOrg } from './support/answers';
import { signedInWithApiFake, unsignedJwt } from './support/signedIn';
import { render } from '@/tests/helpers/render';
import BillingPage from '@/components/dashboard/billing/BillingPage';
import { errorToast } from '@/components/dashboard/common';
import { ApiError } from '@/lib/api/client';
import { topWindow } from '@/lib/navigation';
import type { ApiData } from '@/lib/api/openapi';
import { PLANS } from '@/shared/plans';
import { useAuthStore } from '@/stores/auth';


const startup = PLANS.find((p) => p.id === 'startup')!;
const org = (role: 'owner' | 'admin' | 'member') => anOrg(role, { name: 'Acme', plan: 'startup', members: 2 });
type Billing = ApiData<'/api/v1/org/billing', 'get'>;
type Role = 'owner' | 'admin' | 'member';
const overview = (over: Partial<Billing> = {}): Billing => ({
  billing_enabled: true,
  plan: 'startup',
  plan_name: 'Startup',
  status: 'active',
  current_period_end: '2030-05-01T00:00:00.000Z',
  usage: { apps: 3, channels: 2, members: 4, api_keys: 0, ask_arb_questions: 17, api_calls: 1234 },
  limits: startup.limits,
  features: startup.features,
  can_manage: true,
  purchasable: ['startup', 'business', 'enterprise'],
  grace_ends_at: null,
  refused_subscriptions: [],
  items: { apps: [], channels: [] },
  ...over,
});

const api = signedInWithApiFake();

async function open(role: Role, billing = overview(), extra: Parameters<typeof api.start>[0] = []) {
  await api.start([route('GET', '/api/v1/org', ok(org(role))), route('GET', '/api/v1/org/billing', ok(billing)), ...extra]);
  return render(<BillingPage />, { url: '/dashboard/billing' });
}

describe('/dashboard/billing', () => {
  test('shows the plan, its status, the renewal and every limit with its use as a labelled meter', async () => {
    await open('owner');
    expect(screen.getByLabelText('Loading billing')).toBeInTheDocument();
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(plan).getByText('Startup')).toBeInTheDocument();
    expect(within(plan).getByText('Active')).toBeInTheDocument();
    expect(within(plan).getByText('Renews').nextElementSibling!.querySelector('time')).toHaveAttribute('datetime', '2030-05-01T00:00:00.000Z');

    const apps = screen.getByRole('meter', { name: 'Apps' });
    expect(apps).toHaveAttribute('aria-valuetext', '3 of 3 apps');
    expect(apps).toHaveAttribute('max', '3');
    expect(screen.getByRole('meter', { name: 'Channels' })).toHaveAttribute('aria-valuetext', '2 of 5 channels');
    expect(screen.getByRole('meter', { name: 'Ask ARB questions a month' })).toHaveAttribute('aria-valuetext', '17 of 100 Ask ARB questions this month');
    expect(screen.getByText('4 team members — unlimited')).toBeInTheDocument();
    expect(screen.getAllByText('Not included in Startup')).toHaveLength(2); // API keys and API calls a month
    expect(screen.queryByRole('meter', { name: 'API keys' })).toBeNull();
  });

  test('the owner upgrades: plans above theirs only, a checkout for the chosen plan, then the browser goes there', async () => {
    const go = vi.spyOn(topWindow, 'navigate').mockImplementation(() => {});
    await open('owner', overview(), [route('POST', '/api/v1/org/billing/purchase', ok({ url: 'https://checkout.stripe.com/c/pay/cs_1' }))]);
    const change = await screen.findByRole('region', { name: 'Change your plan' });
    const buttons = within(change).getAllByRole('button').map((b) => b.textContent);
    expect(buttons).toEqual(['Upgrade to Business — $59 a month', 'Upgrade to Enterprise — $249 a month', 'Open the billing portal']);
    within(change).getByRole('button', { name: 'Upgrade to Business — $59 a month' }).click();
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_1'));
    const sent = api.fake!.requests.filter(notPreflight).filter((r) => r.path === '/api/v1/org/billing/purchase');
    expect(sent.map((r) => JSON.parse(r.body))).toEqual([{ price_id: 'business' }]);
  });

  test('a refused checkout is a toast with the server’s message', async () => {
    const shown = vi.spyOn(toast, 'error');
    await open('owner', overview(), [route('POST', '/api/v1/org/billing/purchase', fail(404, 'not_found', 'The business plan cannot be bought on this server yet. Contact us to subscribe.'))]);
    (await screen.findByRole('button', { name: /Upgrade to Business/ })).click();
    await waitFor(() => expect(shown).toHaveBeenCalledWith('The business plan cannot be bought on this server yet. Contact us to subscribe.'));
  });

  test('admins read it without any action; members are told who can see it', async () => {
    await open('admin', overview({ can_manage: false }));
    expect(await screen.findByText('Only the owner can change the plan.')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    await api.fake!.close();
    api.fake!.restore();

    useAuthStore.getState().setAuthData({ authToken: unsignedJwt({ email: 'mo@example.com', org: 'org_1', scope: 'full' }), email: 'mo@example.com' });
    await api.start([route('GET', '/api/v1/org', ok(org('member')))]);
    render(<BillingPage />, { url: '/dashboard/billing' });
    expect(await screen.findByText('Only admins and the owner can see billing. You are a member.')).toBeInTheDocument();
    expect(api.fake!.requests.filter((r) => r.path === '/api/v1/org/billing')).toHaveLength(0);
  });

  test('a server without billing says so: no renewal, nothing to buy, no limit', async () => {
    const limits = { apps: null, channels: null, members: null, ask_arb_questions: null, api_keys: null, api_calls: null };
    await open('owner', overview({ billing_enabled: false, plan: 'unlimited', plan_name: 'Self-hosted', current_period_end: null, limits, purchasable: [] }));
    expect(await screen.findByText('Billing is off on this server')).toBeInTheDocument();
    expect(screen.getByText('Billing is off on this server: there is nothing to buy, and no limit applies.')).toBeInTheDocument();
    expect(screen.queryByText('Renews')).toBeNull();
    expect(screen.queryByRole('meter')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('3 apps — unlimited')).toBeInTheDocument();
  });
});

describe('choose what stays active', () => {
  const free = PLANS.find((p) => p.id === 'free')!;
  const items = {
    apps: [
      { app_key: 'apple_app_store__1', title: 'Focus Lantern', store: 'apple_app_store', paused: false },
      { app_key: 'apple_app_store__2', title: 'Pocket Garden', store: 'apple_app_store', paused: true },
    ],
    channels: [
      { id: 'dst_a', platform: 'slack', platform_name: 'Slack', label: '#reviews', target_hint: 'hooks.slack.com/…a', status: 'active', paused: false },
      { id: 'dst_b', platform: 'discord', platform_name: 'Discord', label: null, target_hint: 'discord.com/…b', status: 'paused', paused: true },
    ],
  };
  const downgraded = (over: Record<string, unknown> = {}) =>
    overview({ plan: 'free', plan_name: 'Free', status: 'canceled', limits: free.limits, features: free.features, usage: { ...overview().usage, apps: 1, channels: 1 }, items, ...over });

  test('after a downgrade the owner swaps what stays within the limits and saves: exactly the ticked ones are sent', async () => {
    const saved = vi.spyOn(toast, 'success');
    await open('owner', downgraded(), [route('PUT', '/api/v1/org/billing/active', ok({ paused: { apps: ['apple_app_store__1'], channels: [] }, resumed: { apps: ['apple_app_store__2'], channels: [] } }))]);
    const step = await screen.findByRole('region', { name: 'Choose what stays active' });
    expect(within(step).getByText(/Your Free plan allows 1 app and 1 channel\. What is not chosen is paused, never deleted/)).toBeInTheDocument();
    const lantern = within(step).getByRole('checkbox', { name: /Focus Lantern/ });
    const garden = within(step).getByRole('checkbox', { name: /Pocket Garden/ });
    expect(lantern).toBeChecked();
    // At the limit, an unticked app cannot be ticked until another is unticked.
    expect(garden).toBeDisabled();
    act(() => lantern.click());
    expect(garden).toBeEnabled();
    act(() => garden.click());
    expect(within(step).getByRole('checkbox', { name: /Slack · #reviews/ })).toBeChecked();
    expect(within(step).getByRole('checkbox', { name: /Discord · discord\.com/ })).toBeDisabled();
    within(step).getByRole('button', { name: 'Keep these active' }).click();
    await waitFor(() => expect(saved).toHaveBeenCalledWith('Saved: 1 resumed, 1 paused. Nothing was deleted.'));
    const sent = api.fake!.requests.filter(notPreflight).filter((r) => r.path === '/api/v1/org/billing/active');
    expect(sent.map((r) => JSON.parse(r.body))).toEqual([{ apps: ['apple_app_store__2'], channels: ['dst_a'] }]);
  });

  test('shown only when something is paused by the plan or over it; admins read it without a button; a failed payment shows its grace period', async () => {
    await open('owner');
    await screen.findByRole('region', { name: 'Your plan' });
    expect(screen.queryByRole('region', { name: 'Choose what stays active' })).toBeNull();
    await api.fake!.close();
    api.fake!.restore();

    await open('admin', downgraded({ can_manage: false, status: 'past_due', grace_ends_at: '2030-05-08T00:00:00.000Z' }));
    const step = await screen.findByRole('region', { name: 'Choose what stays active' });
    expect(within(step).queryByRole('button')).toBeNull();
    expect(within(step).getAllByRole('checkbox').every((c) => (c as HTMLInputElement).disabled)).toBe(true);
    expect(screen.getByRole('status')).toHaveTextContent(/The last payment failed\. Your plan stays until/);
  });

  test('a second subscription that was refused and cancelled is said in plain words', async () => {
    const message = 'A second subscription for the Business plan was started on May 2, 2030 while your subscription was running. We kept the subscription you already had and cancelled the second one, so you are not billed twice. If you were charged for it, contact us and we will refund it.';
    await open('owner', overview({ refused_subscriptions: [{ refused_at: '2030-05-02T10:00:00.000Z', plan_name: 'Business', cancelled: true, message }] }));
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(plan).getByRole('status')).toHaveTextContent(message);
  });
});

describe('a plan limit anywhere in the dashboard', () => {
  test('the toast says the server’s message with an Upgrade link to the Billing page', async () => {
    render(<Toaster />);
    act(() => void errorToast(new ApiError('Your Free plan allows 1 app. Upgrade to Startup for 3 apps.', 402, 'plan_limit')));
    expect(await screen.findByText(/Your Free plan allows 1 app\. Upgrade to Startup for 3 apps\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/dashboard/billing');
    act(() => void errorToast(new ApiError('Only the owner can do that.', 403, 'forbidden')));
    expect(await screen.findByText('Only the owner can do that.')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Upgrade' })).toHaveLength(1);
    act(() => toast.remove());
  });
});
