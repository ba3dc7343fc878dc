import { describe, expect, test } from 'vitest';
import { captureReferral, readAttribution } from '@/lib/referral';

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    dump: () => Object.fromEntries(map),
  };
}

describe('captureReferral', () => {
  test('saves utm_source, utm_medium and utm_campaign when seen', () => {
    const s = memoryStorage();
    captureReferral('?utm_source=newsletter&utm_medium=email&utm_campaign=spring', s);
    expect(s.dump()).toMatchObject({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' });
  });

  test('later utm values replace earlier ones', () => {
    const s = memoryStorage({ utm_source: 'old', utm_medium: 'cpc' });
    captureReferral('?utm_source=new', s);
    expect(s.dump()).toMatchObject({ utm_source: 'new', utm_medium: 'cpc' });
  });

  test('referral comes from ref when there is no utm_source', () => {
    const s = memoryStorage();
    captureReferral('?ref=partner42', s);
    expect(s.dump().referral).toBe('partner42');
  });

  test('utm_source overrides ref for the referral', () => {
    const s = memoryStorage();
    captureReferral('?ref=partner42&utm_source=producthunt', s);
    expect(s.dump().referral).toBe('producthunt');
  });

  test('referral is saved only if none exists yet (first touch wins)', () => {
    const s = memoryStorage({ referral: 'first' });
    captureReferral('?ref=second&utm_source=third', s);
    expect(s.dump().referral).toBe('first');
    expect(s.dump().utm_source).toBe('third');
  });

  test('ignores empty values and pages without attribution', () => {
    const s = memoryStorage();
    captureReferral('?utm_source=&ref=%20&q=app', s);
    expect(s.dump()).toEqual({});
  });

  test('readAttribution returns the four values for the sign-in metadata', () => {
    const s = memoryStorage({ utm_source: 'a', utm_campaign: 'c', referral: 'r' });
    expect(readAttribution(s)).toEqual({ utm_source: 'a', utm_medium: null, utm_campaign: 'c', referral: 'r' });
  });

  test('does nothing without storage (server side)', () => {
    expect(() => captureReferral('?ref=x', null)).not.toThrow();
    expect(readAttribution(null)).toEqual({ utm_source: null, utm_medium: null, utm_campaign: null, referral: null });
  });
});
