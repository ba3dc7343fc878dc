/**
 * Attribution capture (docs/PRODUCT.md, Browser state): utm_source, utm_medium and utm_campaign are saved whenever a page is loaded
 * with them; `referral` is written once (first touch wins) from `ref`, overridden by `utm_source` when both are there.
 * The values travel with the sign-in token exchange as metadata.
 */
const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;
const REFERRAL_KEY = 'referral';

export type Attribution = { utm_source: string | null; utm_medium: string | null; utm_campaign: string | null; referral: string | null };

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

function browserStorage(): KeyValueStore | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy mode, sandboxed iframe)
  }
}

function nonEmpty(v: string | null): string | null {
  const t = v?.trim();
  return t ? t.slice(0, 200) : null;
}

export function captureReferral(search: string | URLSearchParams, storage: KeyValueStore | null = browserStorage()): void {
  if (!storage) return;
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  for (const key of UTM_KEYS) {
    const value = nonEmpty(params.get(key));
    if (value) storage.setItem(key, value);
  }
  if (nonEmpty(storage.getItem(REFERRAL_KEY))) return;
  const referral = nonEmpty(params.get('utm_source')) ?? nonEmpty(params.get('ref'));
  if (referral) storage.setItem(REFERRAL_KEY, referral);
}

export function readAttribution(storage: KeyValueStore | null = browserStorage()): Attribution {
  const get = (k: string) => (storage ? nonEmpty(storage.getItem(k)) : null);
  return { utm_source: get('utm_source'), utm_medium: get('utm_medium'), utm_campaign: get('utm_campaign'), referral: get(REFERRAL_KEY) };
}
