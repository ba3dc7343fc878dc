/**
 * Product analytics behind a small list of sinks. Nothing that works as a key leaves through them: organisation ids
 * (the /subscribe link's org_id), dashboard hand-off codes (`token=home__…`) and tokens are cut out of every URL and
 * property (scrubUrl, scrubProperties) — here for our own calls, and in PostHog's before_send / get_current_url for
 * what its SDK adds by itself (the current URL, autocaptured element texts).
 * PostHog is the one vendor; its SDK is fetched with import() only when
 * NEXT_PUBLIC_POSTHOG_KEY is set, so it never weighs on the bundle otherwise, and without a key every call is a no-op.
 * The second analytics service is served through window.dataLayer (a tag manager's hand-off) — no second SDK.
 */
export type AnalyticsSink = {
  pageview(url: string): void;
  identify(email: string, traits: Record<string, unknown>): void;
  capture(event: string, properties?: Record<string, unknown>): void;
};

type PosthogLike = {
  init(key: string, options: Record<string, unknown>): unknown;
  capture(event: string, properties?: Record<string, unknown>): unknown;
  identify(distinctId: string, properties?: Record<string, unknown>): unknown;
};

export type AnalyticsConfig = {
  posthogKey?: string;
  posthogHost?: string;
  loadPosthog?: () => Promise<PosthogLike>;
};

const sinks: Array<Promise<AnalyticsSink | null>> = [];

/** Query parameters that carry keys (hand-off code, org id on /subscribe) or tokens. */
const SECRET_PARAMS = ['token', 'org_id', 'code', 'refresh_token', 'access_token'];
/** Property names whose values are never sent, whatever they hold. */
const SECRET_KEYS = /^(org_?id|token|auth_?token|refresh_?token|code|authorization)$/i;
/** Org ids, hand-off codes and JWT-shaped strings inside any text. */
const SECRET_TEXT = [/\borg_[0-9A-Za-z]{8,}/g, /home__[\w.%-]+/g, /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g];
const REDACTED = '[redacted]';

export function scrubText(text: string): string {
  return SECRET_TEXT.reduce((t, re) => t.replace(re, REDACTED), text);
}

/** A URL (absolute or a path) without the parameters that carry keys, and with any key left in it redacted. */
export function scrubUrl(url: string): string {
  const absolute = /^[a-z][a-z\d+.-]*:/i.test(url);
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid');
  } catch {
    return scrubText(url);
  }
  for (const name of SECRET_PARAMS) parsed.searchParams.delete(name);
  const out = absolute ? parsed.toString() : `${parsed.pathname}${parsed.search}${parsed.hash}`;
  return scrubText(out);
}

/** Properties with secret-named keys dropped and keys inside texts redacted, at any depth. */
export function scrubProperties<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return (/^https?:\/\/|^\//.test(value) ? scrubUrl(value) : scrubText(value)) as T;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubProperties(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!SECRET_KEYS.test(k)) out[k] = scrubProperties(v, depth + 1);
  return out as T;
}
let initialized = false;

function posthogSink(posthog: PosthogLike, key: string, host: string | undefined): AnalyticsSink {
  // Page views are sent by hand on route changes (the pages router does not reload), not by the SDK's own capture.
  posthog.init(key, {
    api_host: host || 'https://us.i.posthog.com',
    capture_pageview: false,
    persistence: 'localStorage',
    // What the SDK adds by itself ($current_url, element texts) passes through the same scrubbing as our own calls.
    get_current_url: () => scrubUrl(window.location.href),
    before_send: (event: { properties?: Record<string, unknown>; $set?: Record<string, unknown> } | null) =>
      event && { ...event, properties: scrubProperties(event.properties ?? {}), ...(event.$set ? { $set: scrubProperties(event.$set) } : {}) },
  });
  return {
    pageview: (url) => void posthog.capture('$pageview', { $current_url: url }),
    identify: (email, traits) => void posthog.identify(email, traits),
    capture: (event, properties) => void posthog.capture(event, properties),
  };
}

const defaultLoader = async (): Promise<PosthogLike> => (await import('posthog-js')).default as unknown as PosthogLike;

type DataLayerWindow = { dataLayer?: Array<Record<string, unknown>> };

/**
 * The page's `window.dataLayer`: the standard hand-off to a tag manager, and so to the second analytics
 * service, whichever the site owner wires there. Costs nothing and loads nothing.
 */
function dataLayerSink(win: DataLayerWindow): AnalyticsSink {
  const push = (entry: Record<string, unknown>) => (win.dataLayer ??= []).push(entry);
  return {
    pageview: (url) => push({ event: 'page_view', page_path: url }),
    // The e-mail stays out of the data layer: tags there are often third-party scripts.
    identify: (_email, traits) => push({ event: 'identify', is_verified: traits.is_verified }),
    capture: (event, properties) => push({ event, ...properties }),
  };
}

/** Called once in the browser from the app shell. Safe to call again (the second call does nothing). */
export function initAnalytics(config: AnalyticsConfig = {}): void {
  if (initialized) return;
  initialized = true;
  if (typeof window !== 'undefined') registerAnalyticsSink(dataLayerSink(window as unknown as DataLayerWindow));
  const key = config.posthogKey ?? process.env.NEXT_PUBLIC_POSTHOG_KEY;
  if (!key) return;
  const host = config.posthogHost ?? process.env.NEXT_PUBLIC_POSTHOG_HOST;
  const load = config.loadPosthog ?? defaultLoader;
  sinks.push(
    load()
      .then((posthog) => posthogSink(posthog, key, host))
      .catch((err: unknown) => {
        // Blocked by an ad blocker or offline: analytics must never break the page.
        console.warn('Analytics could not load', err);
        return null;
      }),
  );
}

export function registerAnalyticsSink(sink: AnalyticsSink): void {
  sinks.push(Promise.resolve(sink));
}

function each(fn: (sink: AnalyticsSink) => void): Promise<void> {
  return Promise.all(sinks.map((p) => p.then((s) => s && fn(s)))).then(() => undefined);
}

export function trackPageview(url: string): Promise<void> {
  const clean = scrubUrl(url);
  return each((s) => s.pageview(clean));
}

/** Known e-mails are identified as unverified: the person typed it, nobody has proved they own it. */
export function identifyUser(email: string): Promise<void> {
  return each((s) => s.identify(email, { email, is_verified: false }));
}

export function trackEvent(event: string, properties?: Record<string, unknown>): Promise<void> {
  const clean = properties && scrubProperties(properties);
  return each((s) => s.capture(event, clean));
}

/** Tests only: forget sinks and allow initAnalytics again. */
export function resetAnalyticsForTests(): void {
  sinks.length = 0;
  initialized = false;
}
