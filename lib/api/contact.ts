/** The contact form's call (POST e-mail and message as JSON). */
import { api, call } from './client';

export type ContactMessage = { email: string; message: string };

export function sendContactMessage(body: ContactMessage): Promise<{ ok: true }> {
  return call<{ ok: true }>(api.post('v1/public/contact', body));
}
