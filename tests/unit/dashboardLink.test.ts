import { describe, expect, test } from 'vitest';
import { encode as encodeBase64Url } from 'jose/base64url';
import { dashboardUrl, tokenFromDashboardParam, urlWithoutToken } from '@/lib/dashboardLink';
import { readTokenClaims } from '@/lib/tokenClaims';

describe('dashboard hand-off', () => {
  test('the link carries the token prefixed home__', () => {
    expect(dashboardUrl('abc.def.ghi')).toBe('/dashboard?token=home__abc.def.ghi');
    expect(dashboardUrl(null)).toBe('/dashboard');
  });

  test('the dashboard strips the prefix and ignores anything else', () => {
    expect(tokenFromDashboardParam('home__abc.def.ghi')).toBe('abc.def.ghi');
    expect(tokenFromDashboardParam(['home__t1', 'home__t2'])).toBe('t1');
    expect(tokenFromDashboardParam('home__')).toBeNull();
    expect(tokenFromDashboardParam('abc.def.ghi')).toBeNull();
    expect(tokenFromDashboardParam(undefined)).toBeNull();
  });

  test('the token is removed from the URL, other parameters stay', () => {
    expect(urlWithoutToken('http://localhost:3000/dashboard?token=home__x&tab=apps#top')).toBe('/dashboard?tab=apps#top');
  });

  test('token claims are read for display (email, org)', () => {
    const jwt = ['e30', encodeBase64Url(JSON.stringify({ email: 'ana@example.com', org: 'org_1', scope: 'full', exp: 2000000000 })), 'sig'].join('.');
    expect(readTokenClaims(jwt)).toEqual({ email: 'ana@example.com', orgId: 'org_1', scope: 'full', expiresAt: new Date(2000000000 * 1000) });
    expect(readTokenClaims('not-a-jwt')).toBeNull();
    expect(readTokenClaims('a.%%%.c')).toBeNull();
  });
});
