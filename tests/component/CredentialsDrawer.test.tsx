// The "Store credentials" drawer against a loopback API: the labelled fields of each store, what is sent, the server's
// refusal as a toast, the stored state ("Checked <date>") without the key, and "Remove credentials" after confirming.
import { screen, waitFor } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { describe, expect, test, vi } from 'vitest';
import CredentialsDrawer from '@/components/dashboard/apps/CredentialsDrawer';
import type { OrgApp } from '@/lib/api/orgApps';
import { render } from '@/tests/helpers/render';
import { fail, notPreflight, ok, route } from './support/apiFake';
import { orgApp } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';


const app = (over: Partial<OrgApp> = {}): OrgApp => orgApp({ app_id: '284882215', app_store: 'apple_app_store', title: 'Lantern Notes', added_at: new Date().toISOString(), ...over });

const PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----';

const api = signedInWithApiFake('ana@example.com', 'org_7');

const sent = () => api.fake!.requests.filter(notPreflight).filter((r) => r.path.endsWith('/credentials'));

describe('Store credentials drawer', () => {
  test('App Store Connect: labelled fields; the check’s refusal is a toast with the server’s words', async () => {
    const refusal = 'App Store Connect accepted the key, but its role may not read customer reviews.';
    await api.start([route('PUT', '/api/v1/org/apps/apple_app_store__284882215/credentials', fail(422, 'credentials_rejected', refusal))]);
    const { user } = render(
      <>
        <Toaster />
        <CredentialsDrawer app={app()} onClose={() => undefined} />
      </>,
    );
    await user.type(await screen.findByLabelText('Issuer ID'), '57246542-96fe-1a63-e053-0824d011072a');
    await user.type(screen.getByLabelText('Key ID'), '2X9R4HXF34');
    await user.click(screen.getByLabelText('Private key (.p8)'));
    await user.paste(PEM);
    await user.keyboard('{Tab}');
    expect(screen.queryByLabelText(/Service account key/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Check and save' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(sent().map((r) => JSON.parse(r.body))).toEqual([
      { kind: 'app_store_connect', issuer_id: '57246542-96fe-1a63-e053-0824d011072a', key_id: '2X9R4HXF34', private_key: PEM },
    ]);
  });

  test('Google Play: the service-account JSON, read from a chosen file', async () => {
    const play = app({ key: 'google_play_store__com.example.app', app_id: 'com.example.app', app_store: 'google_play_store', countries: [] });
    await api.start([
      route('PUT', '/api/v1/org/apps/google_play_store__com.example.app/credentials', ok({ ...play, credentials: { kind: 'google_play', label: 'bot@x.iam.gserviceaccount.com', checked_at: new Date().toISOString() } })),
    ]);
    const { user } = render(
      <>
        <Toaster />
        <CredentialsDrawer app={play} onClose={() => undefined} />
      </>,
    );
    const json = '{"type":"service_account","client_email":"bot@x.iam.gserviceaccount.com"}';
    await user.upload(await screen.findByLabelText(/Or choose the file/), new File([json], 'key.json', { type: 'application/json' }));
    await waitFor(() => expect(screen.getByLabelText('Service account key (JSON)')).toHaveValue(json));
    expect(screen.queryByLabelText('Issuer ID')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Check and save' }));
    expect(await screen.findByText(`Store credentials checked and saved for ${play.title}`)).toBeInTheDocument();
    expect(JSON.parse(sent()[0].body)).toEqual({ kind: 'google_play', service_account_json: json });
  });

  test('stored credentials: the label and "Checked <date>", never the key; "Remove credentials" asks first, then deletes', async () => {
    await api.start([route('DELETE', '/api/v1/org/apps/apple_app_store__284882215/credentials', ok({ ok: true }))]);
    const stored = app({ credentials: { kind: 'app_store_connect', label: '2X9R4HXF34', checked_at: '2026-11-20T10:00:00.000Z' } });
    const { user } = render(
      <>
        <Toaster />
        <CredentialsDrawer app={stored} onClose={() => undefined} />
      </>,
    );
    expect(await screen.findByText('2X9R4HXF34')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/Checked .*2026/);
    expect(screen.getByLabelText('Private key (.p8)')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Check and replace' })).toBeInTheDocument();

    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const remove = screen.getByRole('button', { name: 'Remove credentials of Lantern Notes' });
    await user.click(remove);
    expect(sent()).toHaveLength(0);
    remove.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Store credentials removed')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(sent().map((r) => r.method)).toEqual(['DELETE']);
  });
});
