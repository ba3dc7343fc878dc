import { afterEach, describe, expect, test, vi } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { warnIfCaptchaOff } from '@/server/auth/captcha';
import { codeRequestBackoffSeconds } from '@/server/auth/emailSignIn';
import { maskEmail } from '@/server/auth/session';

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
  vi.restoreAllMocks();
});

function stderrDuring(fn: () => unknown): string {
  let out = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  fn();
  vi.restoreAllMocks();
  return out;
}

describe('captcha-off banner at start-up', () => {
  test('production without HCAPTCHA_SECRET: one loud warning that says what to set', () => {
    restore = setEnvForTests({ NODE_ENV: 'production', HCAPTCHA_SECRET: undefined, LOG_LEVEL: 'info' });
    let warned = false;
    const out = stderrDuring(() => (warned = warnIfCaptchaOff()));
    expect(warned).toBe(true);
    const entry = JSON.parse(out.trim());
    expect(entry).toMatchObject({ level: 'warn' });
    expect(entry.msg).toContain('CAPTCHA IS OFF IN PRODUCTION');
    expect(entry.fix).toContain('HCAPTCHA_SECRET');
  });

  test('silent with a secret, and outside production', () => {
    restore = setEnvForTests({ NODE_ENV: 'production', HCAPTCHA_SECRET: 'sec' });
    expect(stderrDuring(() => expect(warnIfCaptchaOff()).toBe(false))).toBe('');
    restore();
    restore = setEnvForTests({ NODE_ENV: 'development', HCAPTCHA_SECRET: undefined });
    expect(stderrDuring(() => expect(warnIfCaptchaOff()).toBe(false))).toBe('');
  });
});

describe('sign-in limits', () => {
  test('the wait between codes for one (address, network) grows: none, 30 s, 1, 2, 4, 8 minutes, then stays', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(codeRequestBackoffSeconds)).toEqual([0, 30, 60, 120, 240, 480, 480, 480]);
  });

  test('masked owner addresses show the first character and the domain only', () => {
    expect(maskEmail('olivia@example.com')).toBe('o***@example.com');
    expect(maskEmail('a@b.co')).toBe('a***@b.co');
    expect(maskEmail('no-at-sign')).toBe('***');
  });
});
