/**
 * The destinations ARB posts to, one entry each: the registry every `Platform` type, `z.enum` and platform list of
 * the site derives from. Adding a platform starts here (docs/DEVELOPING.md, "Add a chat platform"); its formatter and
 * the way it answers live in `server/destinations/platforms/<id>.ts`, its connect guide in
 * `components/connect/platformGuides.ts`, its marketing page in `content/platform/<slug>.md`. Pure data: the browser
 * and the server both import it.
 */

export type PlatformEntry = {
  /** How people name it: lists, guides, the messages of the URL check. */
  name: string;
  /** In a tight list (the menu, the pricing table); `name` when not set. */
  shortName?: string;
  /** Who answered, in a delivery error's words ("Slack refused the webhook…"); `name` when not set. */
  answerName?: string;
  /** Its marketing page, /platform/<slug> (chat platforms only: e-mail and signed webhooks have none). */
  slug?: string;
  /** The webhook URL: what kind of URL the check asks for ("That isn't <kind> URL") and an example of one. */
  webhookUrl?: { kind: string; example: string };
  /**
   * Its pace per destination (server/destinations/pacing.ts, a GCRA): `burst` messages back to back, then one per
   * `intervalMs`. From chat-platforms.md.
   */
  pace: { intervalMs: number; burst: number };
  /** Connected through the platform's own OAuth ("Add to Slack") besides a pasted webhook. */
  oauth: boolean;
  /** On the home page's connect flow (anyone); the others only from an organisation's dashboard. */
  public: boolean;
};

/** In the order the site lists them; Slack first, the default. */
export const PLATFORM_REGISTRY = {
  slack: {
    name: 'Slack',
    slug: 'slack',
    webhookUrl: { kind: 'a Slack incoming-webhook', example: 'https://hooks.slack.com/services/T000/B000/XXXX' },
    pace: { intervalMs: 1000, burst: 3 }, // ~1/s with short bursts
    oauth: true, public: true,
  },
  msteams: {
    name: 'Microsoft Teams',
    shortName: 'Teams',
    slug: 'microsoft-teams',
    webhookUrl: {
      kind: 'a Microsoft Teams Workflows webhook',
      example: 'https://prod-00.westus.logic.azure.com:443/workflows/…/triggers/manual/paths/invoke?api-version=…&sig=…',
    },
    pace: { intervalMs: 250, burst: 4 }, // ≤4/s
    oauth: false, public: true,
  },
  mattermost: {
    name: 'Mattermost',
    slug: 'mattermost',
    webhookUrl: { kind: 'a Mattermost incoming-webhook', example: 'https://mattermost.example.com/hooks/xxxxxxxxxxxxxxxxxxxxxxxxxx' },
    pace: { intervalMs: 100, burst: 10 }, // the server's default 10/s (its admin may change it)
    oauth: false, public: true,
  },
  discord: {
    name: 'Discord',
    slug: 'discord',
    webhookUrl: { kind: 'a Discord webhook', example: 'https://discord.com/api/webhooks/123456789012345678/XXXX' },
    pace: { intervalMs: 400, burst: 5 }, // 5 per 2 s per webhook
    oauth: true, public: true,
  },
  webex: {
    name: 'Webex',
    slug: 'webex',
    webhookUrl: { kind: 'a Webex incoming-webhook', example: 'https://webexapis.com/v1/webhooks/incoming/XXXX' },
    pace: { intervalMs: 1000, burst: 3 }, // undocumented: kept gentle
    oauth: false, public: true,
  },
  email: {
    name: 'E-mail',
    pace: { intervalMs: 200, burst: 5 }, // through our own SMTP relay
    oauth: false, public: true,
  },
  webhook: {
    name: 'Webhook',
    answerName: 'Webhook endpoint',
    webhookUrl: { kind: 'an https', example: 'https://example.com/hooks/arb' },
    // A program, not a chat: no published limit, so Mattermost's default pace; its 429s are honoured like any other.
    pace: { intervalMs: 100, burst: 10 },
    oauth: false, public: false,
  },
} as const satisfies Record<string, PlatformEntry>;

type Registry = typeof PLATFORM_REGISTRY;
export type Platform = keyof Registry;
/** A platform that takes a webhook URL (all but e-mail). */
export type WebhookPlatform = { [P in Platform]: Registry[P] extends { webhookUrl: object } ? P : never }[Platform];
export type OAuthPlatform = { [P in Platform]: Registry[P]['oauth'] extends true ? P : never }[Platform];
/** A platform with a marketing page, by its slug. */
export type PlatformSlug = { [P in Platform]: Registry[P] extends { slug: infer S } ? S : never }[Platform];

const entries = Object.entries(PLATFORM_REGISTRY) as Array<[Platform, PlatformEntry]>;
const idsWhere = <P extends Platform>(keep: (entry: PlatformEntry) => boolean) =>
  entries.filter(([, entry]) => keep(entry)).map(([id]) => id) as P[];

/** Every platform, in the registry's order: the API's `platform` enum. A non-empty tuple, as `z.enum` wants it. */
export const ALL_PLATFORMS = Object.keys(PLATFORM_REGISTRY) as [Platform, ...Platform[]];
export const WEBHOOK_PLATFORMS = idsWhere<WebhookPlatform>((e) => e.webhookUrl !== undefined);
/** The platforms with an "Add to …" OAuth connection (server/connect/oauth.ts): the OAuth endpoints' enum. */
export const OAUTH_PLATFORMS = idsWhere<OAuthPlatform>((e) => e.oauth) as [OAuthPlatform, ...OAuthPlatform[]];

export const platformName = (platform: Platform): string => PLATFORM_REGISTRY[platform].name;

/** The slugs of the marketing pages (/platform/<slug>), and each one's platform name. */
export const PLATFORM_SLUGS = entries.flatMap(([, e]) => (e.slug ? [e.slug] : [])) as PlatformSlug[];
export const PLATFORM_NAMES_BY_SLUG = Object.fromEntries(
  entries.flatMap(([, e]) => (e.slug ? [[e.slug, e.name]] : [])),
) as Record<PlatformSlug, string>;

/**
 * The chat platforms (those with a marketing page) for a sentence: "Slack, Microsoft Teams, Mattermost, Discord or
 * Webex". `last` joins the last name (`', '` for a bare list); `short` uses the tight names ("Teams").
 */
export function chatPlatformList(last: string, opts: { short?: boolean } = {}): string {
  const names = entries.filter(([, e]) => e.slug).map(([, e]) => (opts.short ? (e.shortName ?? e.name) : e.name));
  return `${names.slice(0, -1).join(', ')}${last}${names[names.length - 1]}`;
}
