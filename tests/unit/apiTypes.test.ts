// lib/api/schema.d.ts (the browser's API types) is generated from the server's OpenAPI document by
// scripts/api-types.ts; this fails while the committed file is not what the script would write now.
import fs from 'node:fs';
import { expect, test } from 'vitest';
import { API_TYPES_FILE, renderApiTypes } from '../../scripts/api-types';

test('lib/api/schema.d.ts is what `npm run api-types` writes for the API as it is', async () => {
  expect(fs.readFileSync(API_TYPES_FILE, 'utf8')).toBe(await renderApiTypes());
}, 30_000);
