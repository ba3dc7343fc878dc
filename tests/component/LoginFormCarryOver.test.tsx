// "Create free account" after connecting (issue 31): the sign-in form starts with the address typed in the connect
// flow a step earlier, and after "Send code" the code field has the focus.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import LoginForm from '@/components/auth/LoginForm';
import { useConnectionStore } from '@/stores/connection';

let fake: ApiFake;
beforeEach(() => resetStores());
afterEach(async () => {
  fake.restore();
  await fake.close();
});

describe('sign-in after connecting', () => {
  test('the e-mail typed in the connect flow is filled in; Send code moves the focus to the code', async () => {
    fake = await startApiFake([route('POST', '/api/v1/auth/email', ok({ sent: true }))]);
    useConnectionStore.getState().setUserEmail(' ana@example.com ');
    const { user } = render(<LoginForm />, { url: '/login?redirect_to=%2Fdashboard' });
    expect(screen.getByLabelText('Email address')).toHaveValue('ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const code = await screen.findByLabelText('Sign-in code');
    await waitFor(() => expect(document.activeElement).toBe(code));
    const sent = (await fake.waitForRequests(1, (r) => notPreflight(r) && r.path === '/api/v1/auth/email'))[0];
    expect(JSON.parse(sent.body)).toMatchObject({ email: 'ana@example.com' });
  });

  test('without a connect flow before it the field starts empty', () => {
    fake = { restore() {}, async close() {} } as unknown as ApiFake;
    render(<LoginForm />, { url: '/login' });
    expect(screen.getByLabelText('Email address')).toHaveValue('');
  });
});
