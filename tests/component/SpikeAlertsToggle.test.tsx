// The destination drawer's "Spike alerts" setting against a loopback API: it shows the destination's state, and
// saving sends spike_alerts with the other settings.
import { act, screen } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, describe, expect, test } from 'vitest';
import FiltersDrawer from '@/components/dashboard/destinations/FiltersDrawer';
import { render } from '@/tests/helpers/render';
import { notPreflight, ok, route } from './support/apiFake';
import { signedInWithApiFake } from './support/signedIn';
import { APP_KEY, DESTINATION_ID, orgDestination } from './support/orgDestination';

const ID = DESTINATION_ID;
const APP = APP_KEY;
const destination = (spikeAlerts: boolean) => orgDestination({ spike_alerts: spikeAlerts });

const api = signedInWithApiFake();
afterEach(() => act(() => toast.remove()));

describe('Spike alerts in the destination drawer', () => {
  test('off by default; turning it on sends spike_alerts: true with the other settings', async () => {
    const fake = await api.start([route('PATCH', `/api/v1/org/destinations/${ID}`, ok(destination(true)))]);
    const { user } = render(
      <>
        <Toaster />
        <FiltersDrawer destination={destination(false)} apps={new Map([[APP, 'Lantern Notes']])} open onClose={() => undefined} />
      </>,
    );
    const toggle = await screen.findByLabelText(/Post an alert when 1–2★ reviews surge or the average rating drops/);
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Save filters' }));
    expect(await screen.findByText('Filters saved')).toBeInTheDocument();
    const sent = fake.requests.filter(notPreflight).map((r) => JSON.parse(r.body));
    expect(sent).toEqual([expect.objectContaining({ spike_alerts: true, apps: [APP], translate_to: null })]);
  });

  test('a destination with alerts on shows the box checked', async () => {
    render(<FiltersDrawer destination={destination(true)} apps={new Map([[APP, 'Lantern Notes']])} open onClose={() => undefined} />);
    expect(await screen.findByLabelText(/Post an alert when 1–2★ reviews surge/)).toBeChecked();
  });
});
