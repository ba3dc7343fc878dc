/** Field schemas that several endpoints share, so the same input is judged the same way everywhere. */
import { z } from 'zod';

/** An e-mail address, trimmed and lower-cased (addresses are compared case-insensitively across ARB). */
export const emailAddress = z
  .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.email('Enter a valid e-mail address.').max(254))
  .meta({ description: 'E-mail address (compared case-insensitively).', example: 'jane@example.com' });
