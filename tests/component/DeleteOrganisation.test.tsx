/**
 * Deleting the organisation on the Team page against a loopback API: only the owner sees it; the button waits for the
 * organisation's exact name; the server's refusal (a running subscription) is a toast and nothing else happens; a
 * deletion signs the owner out and leaves for the home page.
 */
import { screen, waitFor } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { describe, expect, test } from 'vitest';
import { fail, notPreflight, ok, route } from './support/apiFake';
import { member, org } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';
import { render } from '@/tests/helpers/render';
import TeamPage from '@/components/dashboard/TeamPage';
import { useAuthStore } from '@/stores/auth';

type Role = 'owner' | 'admin' | 'member';
const me = (role: Role) => [member('usr_1', 'ana@example.com', role, true)];

const api = signedInWithApiFake();

async function open(role: Role, deletion = ok({ ok: true })) {
  await api.start([
    route('GET', '/api/v1/org', ok(org(role))),
    route('GET', '/api/v1/org/members', ok(me(role))),
    route('GET', '/api/v1/org/invitations', ok([])),
    route('GET', '/api/v1/org/audit-log', ok([])),
    route('DELETE', '/api/v1/org', deletion),
  ]);
  return render(
    <>
      <TeamPage />
      <Toaster />
    </>,
    { url: '/dashboard/team' },
  );
}

const deletions = () => api.fake!.requests.filter(notPreflight).filter((r) => r.method === 'DELETE' && r.path === '/api/v1/org');

describe('deleting the organisation', () => {
  test('the owner types the exact name; the deletion signs them out and goes home', async () => {
    const { user, router } = await open('owner');
    const button = await screen.findByRole('button', { name: 'Delete organisation' }, { timeout: 10_000 });
    expect(button).toBeDisabled();
    const confirm = screen.getByLabelText('Type Acme Mobile to confirm');
    await user.type(confirm, 'acme mobile');
    expect(button).toBeDisabled();
    await user.clear(confirm);
    await user.type(confirm, 'Acme Mobile');
    expect(button).toBeEnabled();
    await user.click(button);
    await waitFor(() => expect(router.push).toHaveBeenCalledWith('/'));
    expect(JSON.parse(deletions()[0].body)).toEqual({ confirm: 'Acme Mobile' });
    expect(useAuthStore.getState().authData.authToken).toBeFalsy();
    expect(await screen.findByText('Acme Mobile was deleted.')).toBeInTheDocument();
  });

  test("the server's refusal is a toast; the owner stays signed in", async () => {
    const { user, router } = await open('owner', fail(409, 'subscription_active', 'This organisation still has a paid subscription. Cancel it under Billing → Manage billing first, then delete the organisation.'));
    await user.type(await screen.findByLabelText('Type Acme Mobile to confirm', {}, { timeout: 10_000 }), 'Acme Mobile');
    await user.click(screen.getByRole('button', { name: 'Delete organisation' }));
    expect(await screen.findByText(/still has a paid subscription/)).toBeInTheDocument();
    expect(router.push).not.toHaveBeenCalled();
    expect(useAuthStore.getState().authData.authToken).toBeTruthy();
  });

  test('admins and members do not see it', async () => {
    for (const role of ['admin', 'member'] as const) {
      const { unmount } = await open(role);
      expect(await screen.findByRole('heading', { name: 'Members' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Delete organisation' })).toBeNull();
      unmount();
      api.fake?.restore();
      await api.fake?.close();
      api.fake = undefined;
    }
  });
});
