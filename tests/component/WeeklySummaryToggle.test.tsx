// The destination drawer's "Weekly summary" setting against a loopback API: it shows the destination's state and
// the plan that includes it; saving sends weekly_summaries only when it changed (a plan without summaries refuses
// turning it on, which must not block saving the filters); the server's refusal is shown in its words.
import { act, screen } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, describe, expect, test } from 'vitest';
import FiltersDrawer from '@/components/dashboard/destinations/FiltersDrawer';
import { render } from '@/tests/helpers/render';
import { fail, notPreflight, ok, route } from './support/apiFake';
import { signedInWithApiFake } from './support/signedIn';
import { APP_KEY, DESTINATION_ID, orgDestination } from './support/orgDestination';

const ID = DESTINATION_ID;
const APP = APP_KEY;
const destination = (weekly: boolean) => orgDestination({ weekly_summaries: weekly });

const api = signedInWithApiFake();
afterEach(() => act(() => toast.remove()));

const LABEL = /Post a summary of each app’s reviews every Monday/;

describe('Weekly summary in the destination drawer', () => {
  test('off by default, says which plan includes it; turning it on sends weekly_summaries: true', async () => {
    const fake = await api.start([route('PATCH', `/api/v1/org/destinations/${ID}`, ok(destination(true)))]);
    const { user } = render(
      <>
        <Toaster />
        <FiltersDrawer destination={destination(false)} apps={new Map([[APP, 'Lantern Notes']])} open onClose={() => undefined} />
      </>,
    );
    const toggle = await screen.findByLabelText(LABEL);
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/Included from the Startup plan\./);
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Save filters' }));
    expect(await screen.findByText('Filters saved')).toBeInTheDocument();
    const sent = fake.requests.filter(notPreflight).map((r) => JSON.parse(r.body));
    expect(sent).toEqual([expect.objectContaining({ weekly_summaries: true, apps: [APP] })]);
  });

  test('saving other settings leaves it out', async () => {
    const fake = await api.start([route('PATCH', `/api/v1/org/destinations/${ID}`, ok(destination(true)))]);
    const { user } = render(
      <>
        <Toaster />
        <FiltersDrawer destination={destination(true)} apps={new Map([[APP, 'Lantern Notes']])} open onClose={() => undefined} />
      </>,
    );
    expect(await screen.findByLabelText(LABEL)).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save filters' }));
    expect(await screen.findByText('Filters saved')).toBeInTheDocument();
    const sent = fake.requests.filter(notPreflight).map((r) => JSON.parse(r.body));
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty('weekly_summaries');
  });

  test('a plan that lacks it: the refusal is shown in the server’s words', async () => {
    const words = 'Your Free plan does not include weekly ai summaries. Upgrade to Startup for weekly AI summaries by e-mail.';
    await api.start([route('PATCH', `/api/v1/org/destinations/${ID}`, fail(402, 'plan_limit', words))]);
    const { user } = render(
      <>
        <Toaster />
        <FiltersDrawer destination={destination(false)} apps={new Map([[APP, 'Lantern Notes']])} open onClose={() => undefined} />
      </>,
    );
    await user.click(await screen.findByLabelText(LABEL));
    await user.click(screen.getByRole('button', { name: 'Save filters' }));
    expect(await screen.findByText(words)).toBeInTheDocument();
  });
});
