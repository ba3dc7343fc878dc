/**
 * Request fields shared by the app endpoints, with messages that name the field and say what is expected. The app-id
 * rules themselves live in shared/appIds.ts, shared with the browser and the engine.
 */
import { z } from 'zod';
import { requiredAs } from '@/shared/appIdSchemas';

export { appRefSchema, appStoreSchema, withCheckedAppId } from '@/shared/appIdSchemas';

export const countrySchema = z
  .string(requiredAs('a two-letter country code'))
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2}$/, 'must be a two-letter country code, e.g. us')
  .default('us');

export const searchQuerySchema = z
  .string(requiredAs('text'))
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');
