/**
 * "Created by" and what a removed member leaves behind, on the Team and API keys pages against a loopback API: the
 * invitations and keys say who made them (or "a former member"); removing someone says what they left, and the keys of
 * former members are listed on the Team page, each revoked with one click (the usual revoke call); an invite within
 * the re-invite cooldown shows the server's words, not "sent".
 */
import { screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { describe, expect, test, vi } from 'vitest';
import { json } from '@/tests/fakes/http';
import { notPreflight, ok, route } from './support/apiFake';
import { member as aMember, org as anOrg } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';
import { render } from '@/tests/helpers/render';
import TeamPage from '@/components/dashboard/TeamPage';
import ApiKeysPage from '@/components/dashboard/apiKeys/ApiKeysPage';

const at = '2026-01-01T00:00:00Z';
const org = (role: 'owner' | 'admin' | 'member') => anOrg(role, { members: 2, created_at: at });
const member = (id: string, email: string, role: 'owner' | 'admin' | 'member', you = false) => aMember(id, email, role, you, { joined_at: at });
const key = (id: string, name: string, createdBy: string | null) => ({ id, name, prefix: `arb_${id.slice(4, 10)}`, created_at: at, created_by: createdBy, last_used_at: null });
const invitation = (id: string, email: string, createdBy: string | null, mailedAt: string | null) => ({ id, email, role: 'member', created_at: at, expires_at: '2026-01-08T00:00:00Z', created_by: createdBy, mailed_at: mailedAt });

const api = signedInWithApiFake();

/** A small organisation the fake keeps in memory, so removals and revocations show in the lists fetched after them. */
async function openTeam() {
  const state = {
    members: [member('usr_1', 'ana@example.com', 'admin', true), member('usr_2', 'bob@example.com', 'admin')],
    invitations: [invitation('inv_1', 'carol@example.com', 'bob@example.com', at), invitation('inv_2', 'dan@example.com', null, null)],
    keys: [key('key_aaaaaaaaaaaaaaaaaaaaaaaa', 'CI', 'ana@example.com'), key('key_bbbbbbbbbbbbbbbbbbbbbbbb', 'Zapier', 'bob@example.com'), key('key_cccccccccccccccccccccccc', 'Old export', null)],
  };
  await api.start([
    route('GET', '/api/v1/org', ok(org('admin'))),
    route('GET', '/api/v1/org/members', (_req, res) => json(res, 200, { data: state.members })),
    route('GET', '/api/v1/org/invitations', (_req, res) => json(res, 200, { data: state.invitations })),
    route('GET', '/api/v1/org/api-keys', (_req, res) => json(res, 200, { data: state.keys })),
    route('GET', '/api/v1/org/audit-log', ok([])),
    route('DELETE', '/api/v1/org/members/usr_2', (_req, res) => {
      state.members = state.members.filter((m) => m.id !== 'usr_2');
      const revoked = state.invitations.filter((i) => i.created_by === 'bob@example.com');
      state.invitations = state.invitations.filter((i) => i.created_by !== 'bob@example.com');
      state.keys = state.keys.map((k) => (k.created_by === 'bob@example.com' ? { ...k, created_by: null } : k));
      json(res, 200, { data: { ok: true, revoked_invitations: revoked.map((i) => ({ id: i.id, email: i.email, role: i.role })), api_keys: state.keys.filter((k) => k.name === 'Zapier') } });
    }),
    route('DELETE', '/api/v1/org/api-keys/key_bbbbbbbbbbbbbbbbbbbbbbbb', (_req, res) => {
      state.keys = state.keys.filter((k) => k.id !== 'key_bbbbbbbbbbbbbbbbbbbbbbbb');
      json(res, 200, { data: { ok: true } });
    }),
    route('POST', '/api/v1/org/invitations', (_req, res) =>
      json(res, 200, {
        data: {
          ...state.invitations[0],
          mail: { sent: false, sent_at: at, resend_after: '2026-01-01T00:10:00Z', message: 'The invitation e-mail went to carol@example.com at 00:00 UTC. It can be sent again after 00:10 UTC.' },
        },
      }),
    ),
  ]);
  return render(
    <>
      <TeamPage />
      <Toaster />
    </>,
    { url: '/dashboard/team' },
  );
}

const requests = (method: string, path: string) => api.fake!.requests.filter(notPreflight).filter((r) => r.method === method && r.path === path);

describe('created by, and what a removed member leaves behind', () => {
  test('invitations say who sent them; a former member’s keys are listed, and revoked with one click', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = await openTeam();
    const open = await screen.findByRole('list', { name: 'Open invitations' }, { timeout: 10_000 });
    expect(within(open).getByText(/carol@example\.com · Member · until .* · invited by bob@example\.com/)).toBeInTheDocument();
    expect(within(open).getByText(/dan@example\.com · Member · until .* · invited by a former member/)).toBeInTheDocument();
    expect(within(open).getByText(/not e-mailed: this address unsubscribed from ARB e-mails/)).toBeInTheDocument();

    const former = await screen.findByRole('list', { name: 'API keys of former members' });
    expect(within(former).getAllByRole('listitem').map((li) => li.textContent)).toEqual([expect.stringMatching(/^Old export · arb_cccccc… · created .* by a former member/)]);

    await user.click(screen.getByRole('button', { name: 'Remove bob@example.com' }));
    expect(
      await screen.findByText(
        'bob@example.com was removed. The invitation they sent was cancelled. An API key they created still works: revoke it under “API keys of former members” if nobody needs it.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'API keys of former members' })).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.getByRole('list', { name: 'Open invitations' })).not.toHaveTextContent('carol@example.com');

    // One click: no question asked (the removal above was the only confirm).
    await user.click(screen.getByRole('button', { name: 'Revoke the API key Zapier' }));
    await waitFor(() => expect(requests('DELETE', '/api/v1/org/api-keys/key_bbbbbbbbbbbbbbbbbbbbbbbb')).toHaveLength(1));
    expect(await screen.findByText('API key revoked')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'API keys of former members' })).getAllByRole('listitem')).toHaveLength(1));
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  test('inviting again within the cooldown shows when another e-mail may go, not “sent”', async () => {
    const { user } = await openTeam();
    await user.type(await screen.findByLabelText('E-mail address', {}, { timeout: 10_000 }), 'carol@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite member' }));
    expect(await screen.findByText('The invitation e-mail went to carol@example.com at 00:00 UTC. It can be sent again after 00:10 UTC.')).toBeInTheDocument();
    expect(screen.queryByText('Invitation sent to carol@example.com')).toBeNull();
  });

  test('the API keys page names each key’s creator, or “a former member”', async () => {
    await api.start([
      route('GET', '/api/v1/org', ok(org('member'))),
      route('GET', '/api/v1/org/api-keys', ok([key('key_aaaaaaaaaaaaaaaaaaaaaaaa', 'CI', 'ana@example.com'), key('key_cccccccccccccccccccccccc', 'Old export', null)])),
    ]);
    render(<ApiKeysPage />, { url: '/dashboard/api-keys' });
    const table = await screen.findByRole('table', { name: 'API keys of the organisation' }, { timeout: 10_000 });
    expect(within(table).getByRole('columnheader', { name: 'Created by' })).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getByRole('cell', { name: 'ana@example.com' })).toBeInTheDocument();
    expect(within(rows[1]).getByRole('cell', { name: 'a former member' })).toBeInTheDocument();
  });
});
