/** Field schemas that several endpoints share, so the same input is judged the same way everywhere. */
import { z } from 'zod';

/** An e-mail address, trimmed and lower-cased (addresses are compared case-insensitively across ARB). */
export const emailAddress = z
  .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.email('Enter a valid e-mail address.').max(254))
  .meta({ description: 'E-mail address (compared case-insensitively).', example: 'jane@example.com' });

/** A name people give something (an organisation, an API key): trimmed, 1–100 characters, no control characters. */
export const displayName = (whenEmpty: string) =>
  z
    .string('name must be a string.')
    .trim()
    .min(1, whenEmpty)
    .max(100, 'The name can be at most 100 characters.')
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'The name cannot contain control characters.');
