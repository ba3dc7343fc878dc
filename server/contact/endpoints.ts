import { z } from 'zod';
import { endpoint } from '../http/api';
import { emailAddress } from '../http/schemas';
import { submitContactMessage } from './contact';

export const contactMessage = endpoint({
  summary: 'Send a message to the ARB team',
  tags: ['public'],
  body: z.object({
    email: emailAddress,
    message: z
      .string('message must be text.')
      .trim()
      .min(1, 'Write a message first.')
      .max(5000, 'Keep the message under 5,000 characters.'),
  }),
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ body, ip }) => {
    await submitContactMessage({ email: body.email, message: body.message, ip });
    return { ok: true } as const;
  },
});
