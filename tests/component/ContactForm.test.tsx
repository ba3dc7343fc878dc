/** The /contact form against a loopback API: labelled fields, the request it sends, success and the server's error. */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { fail, notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';
import { render } from '@/tests/helpers/render';
import ContactForm from '@/components/marketing/ContactForm';

let fake: ApiFake | undefined;
afterEach(async () => {
  fake?.restore();
  await fake?.close();
  fake = undefined;
});

describe('ContactForm', () => {
  test('sends e-mail and message to POST v1/public/contact and shows that it was sent', async () => {
    fake = await startApiFake([route('POST', '/api/v1/public/contact', ok({ ok: true }))]);
    const { user } = render(<ContactForm />);
    await user.type(screen.getByLabelText('Your e-mail'), '  pm@example.com ');
    await user.type(screen.getByLabelText('Message'), 'Do you support App Store Connect keys per app?');
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('your message is on its way. We’ll reply to pm@example.com.'));
    const sent = fake.requests.filter(notPreflight);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].body)).toEqual({ email: 'pm@example.com', message: 'Do you support App Store Connect keys per app?' });
    expect(screen.getByLabelText('Message')).toHaveValue('');
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
  });

  test('shows the server’s own error message and keeps what was typed', async () => {
    fake = await startApiFake([route('POST', '/api/v1/public/contact', fail(429, 'rate_limited', 'Too many messages from this address. Try again in an hour.'))]);
    const { user } = render(<ContactForm />);
    await user.type(screen.getByLabelText('Your e-mail'), 'pm@example.com');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many messages from this address. Try again in an hour.'));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    expect(screen.getByLabelText('Message')).toHaveValue('Hello');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
  });

  test('both fields are required and limited the way the API limits them', () => {
    render(<ContactForm />);
    expect(screen.getByLabelText('Your e-mail')).toBeRequired();
    expect(screen.getByLabelText('Your e-mail')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Message')).toBeRequired();
    expect(screen.getByLabelText('Message')).toHaveAttribute('maxlength', '5000');
  });
});
