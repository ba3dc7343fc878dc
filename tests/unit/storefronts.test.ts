import { describe, expect, test } from 'vitest';
import { ALL_COUNTRIES, MAIN_STOREFRONTS, STOREFRONTS, isStorefrontCode, storefrontName, storefrontOptions } from '@/shared/storefronts';

describe('App Store storefronts for the connect flow', () => {
  test('"All countries" means 40 real storefronts, no duplicates, US first', () => {
    expect(MAIN_STOREFRONTS).toHaveLength(40);
    expect(new Set(MAIN_STOREFRONTS).size).toBe(40);
    expect(MAIN_STOREFRONTS.every(isStorefrontCode)).toBe(true);
    expect(MAIN_STOREFRONTS[0]).toBe('us');
    expect(isStorefrontCode(ALL_COUNTRIES)).toBe(false);
  });

  test('names for the picker, sorted by name', () => {
    expect(storefrontName('gb')).toBe('United Kingdom');
    expect(storefrontName('XK')).toBe('Kosovo');
    const names = storefrontOptions().map((o) => o.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(storefrontOptions()).toHaveLength(STOREFRONTS.length);
  });
});
