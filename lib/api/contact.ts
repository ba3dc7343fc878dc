/** The contact form's call (POST e-mail and message as JSON). */
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';

export type ContactMessage = ApiBody<'/api/v1/public/contact', 'post'>;

export function sendContactMessage(body: ContactMessage): Promise<ApiData<'/api/v1/public/contact', 'post'>> {
  return call(api.post('v1/public/contact', body));
}
