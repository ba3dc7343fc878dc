import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fail, notPreflight, ok, route, startApiFake, type ApiFake, type Responder } from './support/apiFake';
import { signedIn } from './support/answers';
import { json, type RecordedRequest } from '@/tests/fakes/http';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import LoginForm from '@/components/auth/LoginForm';
import { useAuthStore } from '@/stores/auth';

let fake: ApiFake;
const at = (path: string) => (r: RecordedRequest) => notPreflight(r) && r.path === path;

async function start(overrides: Partial<Record<'email' | 'confirm' | 'exchange', Responder>> = {}) {
  fake = await startApiFake([
    route('POST', '/api/v1/auth/email', overrides.email ?? ok({ sent: true })),
    route('POST', '/api/v1/auth/email/confirm', overrides.confirm ?? ok({ token: 'one-time-token' })),
    route('POST', '/api/v1/auth/token/exchange', overrides.exchange ?? ok(signedIn({ authToken: 'session.jwt', displayName: 'Ana' }))),
  ]);
}

beforeEach(() => resetStores());
afterEach(async () => {
  fake.restore();
  await fake.close();
});

describe('login', () => {
  test('e-mail → code → exchange with attribution → signed in → redirect_to', async () => {
    await start();
    localStorage.setItem('utm_source', 'newsletter');
    localStorage.setItem('utm_campaign', 'spring');
    localStorage.setItem('referral', 'partner42');
    const { user, router } = render(<LoginForm />, { url: '/login?redirect_to=%2Fdashboard%3Ftab%3Dapps' });

    await user.type(screen.getByLabelText('Email address'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const code = await screen.findByLabelText('Sign-in code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByRole('status')).toHaveTextContent('We e-mailed a 6-digit code to ana@example.com.');
    expect(JSON.parse((await fake.waitForRequests(1, at('/api/v1/auth/email')))[0].body)).toEqual({ email: 'ana@example.com', captcha_token: '' });

    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/dashboard?tab=apps'));
    expect(JSON.parse((await fake.waitForRequests(1, at('/api/v1/auth/email/confirm')))[0].body)).toEqual({
      email: 'ana@example.com',
      code: '123456',
      captcha_token: '',
    });
    expect(JSON.parse((await fake.waitForRequests(1, at('/api/v1/auth/token/exchange')))[0].body)).toEqual({
      token: 'one-time-token',
      metadata: { utm_source: 'newsletter', utm_medium: null, utm_campaign: 'spring', referral: 'partner42' },
    });
    expect(useAuthStore.getState().authData).toEqual({ ...signedIn({ authToken: 'session.jwt', displayName: 'Ana' }), name: null });
  });

  // No redirect_to, the bare home page (the header's Login link there) or an unsafe one: the dashboard.
  test.each([
    ['/login?redirect_to=%2F%2Fevil.example', '/dashboard'],
    ['/login', '/dashboard'],
    ['/login?redirect_to=%2F', '/dashboard'],
    ['/login?redirect_to=%2F%3Fapp_id%3D123', '/?app_id=123'],
  ])('%s lands on %s', async (url, landing) => {
    await start();
    const { user, router } = render(<LoginForm />, { url });
    await user.type(screen.getByLabelText('Email address'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.type(await screen.findByLabelText('Sign-in code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith(landing));
  });

  test('a wrong or expired code shows the server’s message and keeps the code step', async () => {
    await start({ confirm: fail(400, 'invalid_code', 'That code is wrong or has expired. Ask for a new one.') });
    const { user, router } = render(<LoginForm />, { url: '/login' });
    await user.type(screen.getByLabelText('Email address'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.type(await screen.findByLabelText('Sign-in code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is wrong or has expired. Ask for a new one.');
    expect(screen.getByLabelText('Sign-in code')).toHaveAttribute('aria-invalid', 'true');
    expect(router.replace).not.toHaveBeenCalled();
    expect(useAuthStore.getState().authData).toEqual({});
  });

  test('a refused e-mail shows why; a server failure shows a plain message', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await start({ email: fail(429, 'rate_limited', 'Too many codes for this address. Try again in 10 minutes.') });
    const { user } = render(<LoginForm />, { url: '/login' });
    await user.type(screen.getByLabelText('Email address'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many codes for this address. Try again in 10 minutes.');
    expect(screen.queryByLabelText('Sign-in code')).toBeNull();
    fake.restore();
    await fake.close();
    await start({ email: fail(500, 'internal', 'relation "login_codes" does not exist') });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('We could not send a code to that address. Check it and try again.'));
    consoleError.mockRestore();
  });

  test('a failed exchange says so and does not sign in', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await start({ exchange: fail(401, 'invalid_token', 'This sign-in token was already used.') });
    const { user } = render(<LoginForm />, { url: '/login' });
    await user.type(screen.getByLabelText('Email address'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.type(await screen.findByLabelText('Sign-in code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not finish signing you in.');
    expect(consoleError).toHaveBeenCalledWith('Serious Error AuthExchange', expect.anything());
    expect(useAuthStore.getState().authData).toEqual({});
    consoleError.mockRestore();
  });

  test('shows a loading state while the code is being sent', async () => {
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    await start({
      email: async (_req, res) => {
        await gate;
        json(res, 200, { data: { sent: true } });
      },
    });
    const { user } = render(<LoginForm />, { url: '/login' });
    await user.type(screen.getByLabelText('Email address'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const busy = await screen.findByRole('button', { name: 'Sending code…' });
    expect(busy).toBeDisabled();
    openGate();
    expect(await screen.findByLabelText('Sign-in code')).toBeInTheDocument();
  });
});
