import { expect, test } from 'vitest';
import { createQueryClient, retryDelay } from '@/lib/queryClient';

test('React Query defaults follow docs/PRODUCT.md: 5 min gc, 3 query retries, no mutation retries', () => {
  const defaults = createQueryClient().getDefaultOptions();
  expect(defaults.queries?.gcTime).toBe(5 * 60 * 1000);
  expect(defaults.queries?.retry).toBe(3);
  expect(defaults.mutations?.retry).toBe(0);
});

test('the retry delay doubles and stops at 30 s', () => {
  expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});
