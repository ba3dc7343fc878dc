/**
 * The destinations ARB posts to, one entry each: the registry every `Platform` type, `z.enum` and platform list of
 * the site derives from. Adding a platform starts here (docs/DEVELOPING.md, "Add a chat platform"); its formatter and
 * the way it answers live in `server/destinations/platforms/<id>.ts`, its connect guide in
 * `components/connect/platformGuides.ts`, its marketing page in `content/platform/<slug>.md`. Pure (no Node or server
 * imports): the browser and the server both import it.
 */

/** What a webhook URL check answers (re-exported by `shared/webhookUrls.ts`, the machinery that runs the shapes). */
export type WebhookUrlCheck =
  /** `url`: the normalised URL to store and post to. */
  | { ok: true; url: string; warning?: string }
  /** `message` is written for the person who pasted the URL; `error` is the same text, for server callers. */
  | { ok: false; message: string; error: string };

/** What a platform's `check` is handed by `validateWebhookUrl` (shared/webhookUrls.ts). */
export type WebhookShapeContext = {
  /** A loopback host stands in for the platform's hosts (tests only, ALLOW_PRIVATE_WEBHOOKS). */
  loopback: boolean;
  /** Private hosts let through (tests only, ALLOW_PRIVATE_WEBHOOKS). */
  allowPrivate: boolean;
  isPrivateHost: (hostname: string) => boolean;
  /** The URL, accepted as it is. */
  ok: (warning?: string) => WebhookUrlCheck;
  /** "That isn't <kind> URL. It should look like <example>." and the hint. */
  notThisPlatform: (hint?: string) => WebhookUrlCheck;
  fail: (message: string) => WebhookUrlCheck;
};

/**
 * A webhook URL's shape, checked after the shared rules of `validateWebhookUrl` (https, port 443 unless `anyPort`, no
 * user name or password). In order: `hosts` (the host must be one of them; a loopback host stands in for
 * them under `allowPrivate`), then `check` (its own rules: a result ends the check, `undefined` goes on), then `path`
 * (the pathname must match); what passes is accepted. Without `hosts`, `check` refuses what it must.
 */
export type WebhookUrlShape = {
  hosts?: readonly string[];
  /** A server anyone may run on a host of their own: under `allowPrivate`, a private host may use http and any port. */
  selfHosted?: boolean;
  /** Any port, not only 443 (signed webhooks: n8n, self-hosted services). */
  anyPort?: boolean;
  path?: RegExp;
  check?: (u: URL, ctx: WebhookShapeContext) => WebhookUrlCheck | undefined;
};

export type PlatformEntry = {
  /** How people name it: lists, guides, the messages of the URL check. */
  name: string;
  /** In a tight list (the menu, the pricing table); `name` when not set. */
  shortName?: string;
  /** Who answered, in a delivery error's words ("Slack refused the webhook…"); `name` when not set. */
  answerName?: string;
  /** Its marketing page, /platform/<slug> (chat platforms only: e-mail and signed webhooks have none). */
  slug?: string;
  /**
   * The webhook URL: what kind of URL the check asks for ("That isn't <kind> URL"), an example of one and its shape
   * (`WebhookUrlShape`, run by `validateWebhookUrl` in shared/webhookUrls.ts).
   */
  webhookUrl?: { kind: string; example: string; shape: WebhookUrlShape };
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

const SLACK_EXAMPLE = 'https://hooks.slack.com/services/T000/B000/XXXX';

const TEAMS_RETIRING_WARNING =
  'This is an Office 365 connector URL. Microsoft is retiring these connectors: create a Workflows webhook in Teams ' +
  '("Post to a channel when a webhook request is received") and paste its URL here to keep receiving reviews.';
const TEAMS_WORKFLOW_PATH = /^\/workflows\/[A-Za-z0-9-]+\/triggers\/manual\/paths\/invoke\/?$/;
const TEAMS_POWER_PLATFORM_PATH = /^\/powerautomate\/automations\/direct\/workflows\/[A-Za-z0-9-]+\/triggers\/manual\/paths\/invoke\/?$/;

/** Teams has two hosts each with its own path, and the retiring connectors: a check of its own. */
function checkTeams(u: URL, { loopback, ok, notThisPlatform, fail }: WebhookShapeContext): WebhookUrlCheck {
  const host = u.hostname;
  const legacyConnector =
    (/^[a-z0-9-]+\.webhook\.office\.com$/.test(host) && u.pathname.startsWith('/webhookb2/')) ||
    ((host === 'outlook.office.com' || host === 'outlook.office365.com') && u.pathname.startsWith('/webhook/'));
  if (legacyConnector) return ok(TEAMS_RETIRING_WARNING);

  const logicApps = loopback || /^prod-\d+\.[a-z0-9-]+\.logic\.azure\.com$/.test(host);
  const powerPlatform = loopback || /^[a-z0-9.-]+\.environment\.api\.powerplatform\.com$/.test(host);
  const shapeOk = (logicApps && TEAMS_WORKFLOW_PATH.test(u.pathname)) || (powerPlatform && TEAMS_POWER_PLATFORM_PATH.test(u.pathname));
  if (!shapeOk) return notThisPlatform();
  // The signature in the query string is the credential: without it the trigger refuses every post.
  if (!u.searchParams.get('sig')) {
    return fail('That Teams Workflows URL is missing its sig=… part. Copy the whole URL from the workflow, including everything after the "?".');
  }
  return ok();
}

/**
 * Google Chat: the webhook's `key` and `token` are its credential, and both must be there. A `threadKey` pasted with
 * it is left to ARB, which threads by app (server/destinations/platforms/googlechat.ts).
 */
function checkGoogleChat(u: URL, { fail }: WebhookShapeContext): WebhookUrlCheck | undefined {
  if (!/^\/v1\/spaces\/[A-Za-z0-9_-]+\/messages\/?$/.test(u.pathname)) return undefined; // the path check answers
  if (!u.searchParams.get('key') || !u.searchParams.get('token')) {
    return fail('That Google Chat webhook URL is missing its key=… or token=… part. Copy the whole URL from the space’s Apps & integrations → Webhooks, including everything after the "?".');
  }
  return undefined;
}

const TELEGRAM_EXAMPLE = 'https://api.telegram.org/bot123456789:AAE…/sendMessage?chat_id=-1001234567890';
/** A bot token as @BotFather gives it: the bot's id, a colon, then 35 letters, digits, '_' or '-'. */
const TELEGRAM_PATH = /^\/bot(\d{3,20}):([A-Za-z0-9_-]{30,60})\/([A-Za-z]+)\/?$/;
/** A chat's id (negative for groups and channels), or a public channel's @username. */
const TELEGRAM_CHAT = /^(?:-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

/**
 * Telegram: the Bot API's sendMessage with the bot's token in the path and the chat in `chat_id` (and a forum topic
 * in `message_thread_id`); ARB sends the chat in the body (server/destinations/platforms/telegram.ts).
 */
function checkTelegram(u: URL, { ok, notThisPlatform, fail }: WebhookShapeContext): WebhookUrlCheck | undefined {
  const m = TELEGRAM_PATH.exec(u.pathname);
  if (!m) {
    return /^\/bot/.test(u.pathname)
      ? fail(`That Telegram URL's bot token does not look right. It is the token @BotFather gave you, like 123456789:AAE…: the URL should look like ${TELEGRAM_EXAMPLE}.`)
      : notThisPlatform();
  }
  if (m[3] !== 'sendMessage') return fail(`That Telegram URL calls ${m[3]}; ARB needs one that ends in /sendMessage, like ${TELEGRAM_EXAMPLE}.`);
  const chat = u.searchParams.get('chat_id');
  if (!chat) return fail(`Add the chat to the Telegram URL: ?chat_id= followed by the chat's id, like ${TELEGRAM_EXAMPLE}.`);
  if (!TELEGRAM_CHAT.test(chat)) return fail('That chat_id is not a Telegram chat id: it is a number (groups and channels start with -100) or a public channel’s @name.');
  const topic = u.searchParams.get('message_thread_id');
  if (topic !== null && !/^\d{1,20}$/.test(topic)) return fail('That message_thread_id is not a topic id: it is a number.');
  for (const key of u.searchParams.keys()) {
    if (key !== 'chat_id' && key !== 'message_thread_id') return fail(`Leave out ${key}=… from the Telegram URL: ARB writes the message itself. Keep only chat_id (and message_thread_id for a topic).`);
  }
  if (u.hash) return fail('Leave out the #… part of the Telegram URL.');
  return ok();
}

/** In the order the site lists them; Slack first, the default. */
export const PLATFORM_REGISTRY = {
  slack: {
    name: 'Slack',
    slug: 'slack',
    // https://hooks.slack.com/services/T…/B…/<secret>  (GovSlack: hooks.slack-gov.com)
    webhookUrl: {
      kind: 'a Slack incoming-webhook',
      example: SLACK_EXAMPLE,
      shape: {
        hosts: ['hooks.slack.com', 'hooks.slack-gov.com'],
        check: (u, { fail }) =>
          /^\/(triggers|workflows)\//.test(u.pathname)
            ? fail(
                `That is a Slack Workflow Builder link (…/triggers/… or …/workflows/…), which expects a different message format. ` +
                  `Create an incoming webhook instead: it looks like ${SLACK_EXAMPLE}.`,
              )
            : undefined,
        path: /^\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+\/?$/,
      },
    },
    pace: { intervalMs: 1000, burst: 3 }, // ~1/s with short bursts
    oauth: true, public: true,
  },
  msteams: {
    name: 'Microsoft Teams',
    shortName: 'Teams',
    slug: 'microsoft-teams',
    // https://prod-NN.<region>.logic.azure.com/workflows/<id>/triggers/manual/paths/invoke?…&sig=…
    // https://<env>.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/<id>/triggers/manual/paths/invoke?…&sig=…
    // legacy Office 365 connectors (*.webhook.office.com/webhookb2/…) accepted with a warning: being retired
    webhookUrl: {
      kind: 'a Microsoft Teams Workflows webhook',
      example: 'https://prod-00.westus.logic.azure.com:443/workflows/…/triggers/manual/paths/invoke?api-version=…&sig=…',
      shape: { check: checkTeams },
    },
    pace: { intervalMs: 250, burst: 4 }, // ≤4/s
    oauth: false, public: true,
  },
  mattermost: {
    name: 'Mattermost',
    slug: 'mattermost',
    // https://<any public host>[/<subpath>]/hooks/<26 lowercase alphanumerics>
    webhookUrl: {
      kind: 'a Mattermost incoming-webhook',
      example: 'https://mattermost.example.com/hooks/xxxxxxxxxxxxxxxxxxxxxxxxxx',
      shape: {
        selfHosted: true,
        check: (u, { allowPrivate, isPrivateHost, notThisPlatform, fail }) => {
          if (!/^(?:\/[^?#]*)?\/hooks\/[a-z0-9]{26}\/?$/.test(u.pathname)) return notThisPlatform();
          if (!allowPrivate && isPrivateHost(u.hostname)) {
            return fail('That address is on a private network. ARB can only post to Mattermost servers that are reachable from the internet.');
          }
          return undefined;
        },
      },
    },
    pace: { intervalMs: 100, burst: 10 }, // the server's default 10/s (its admin may change it)
    oauth: false, public: true,
  },
  discord: {
    name: 'Discord',
    slug: 'discord',
    // https://discord.com/api[/v10]/webhooks/<id>/<token>  (also discordapp.com, ptb., canary.)
    webhookUrl: {
      kind: 'a Discord webhook',
      example: 'https://discord.com/api/webhooks/123456789012345678/XXXX',
      shape: {
        hosts: ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com'],
        check: (u, { notThisPlatform }) =>
          /\/(slack|github)\/?$/.test(u.pathname)
            ? notThisPlatform('Remove the /slack or /github ending: ARB posts in Discord’s own format.')
            : undefined,
        path: /^\/api(?:\/v\d{1,2})?\/webhooks\/\d+\/[A-Za-z0-9_-]+\/?$/,
      },
    },
    pace: { intervalMs: 400, burst: 5 }, // 5 per 2 s per webhook
    oauth: true, public: true,
  },
  webex: {
    name: 'Webex',
    slug: 'webex',
    // https://webexapis.com/v1/webhooks/incoming/<token>  (legacy api.ciscospark.com)
    webhookUrl: {
      kind: 'a Webex incoming-webhook',
      example: 'https://webexapis.com/v1/webhooks/incoming/XXXX',
      shape: { hosts: ['webexapis.com', 'api.ciscospark.com'], path: /^\/v1\/webhooks\/incoming\/[A-Za-z0-9_=-]+\/?$/ },
    },
    pace: { intervalMs: 1000, burst: 3 }, // undocumented: kept gentle
    oauth: false, public: true,
  },
  googlechat: {
    name: 'Google Chat',
    slug: 'google-chat',
    // https://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…  (a space's incoming webhook)
    webhookUrl: {
      kind: 'a Google Chat incoming-webhook',
      example: 'https://chat.googleapis.com/v1/spaces/AAAA…/messages?key=…&token=…',
      shape: { hosts: ['chat.googleapis.com'], path: /^\/v1\/spaces\/[A-Za-z0-9_-]+\/messages\/?$/, check: checkGoogleChat },
    },
    pace: { intervalMs: 1000, burst: 1 }, // 1 message/s per space
    oauth: false, public: true,
  },
  telegram: {
    name: 'Telegram',
    // https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>[&message_thread_id=<topic>]  (the Bot API)
    slug: 'telegram',
    webhookUrl: {
      kind: 'a Telegram bot',
      example: TELEGRAM_EXAMPLE,
      shape: { hosts: ['api.telegram.org'], check: checkTelegram },
    },
    pace: { intervalMs: 3000, burst: 3 }, // 20 messages a minute in a group, 1/s in a private chat
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
    // Any https URL on a public host name, any port (n8n, self-hosted services), any path: signed requests (Standard Webhooks).
    webhookUrl: {
      kind: 'an https',
      example: 'https://example.com/hooks/arb',
      shape: {
        anyPort: true,
        check: (u, { loopback, isPrivateHost, fail }) => {
          if (!loopback && isPrivateHost(u.hostname)) {
            return fail('That address is on a private network. ARB only sends to endpoints that are reachable from the internet.');
          }
          if (u.hash) return fail('Leave out the #… part: it is never sent to the server.');
          return undefined;
        },
      },
    },
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
 * The chat platforms (those with a marketing page) for a sentence: "Slack, Microsoft Teams, Mattermost, Discord,
 * Webex, Google Chat or Telegram". `last` joins the last name (`', '` for a bare list); `short` uses the tight names ("Teams").
 */
export function chatPlatformList(last: string, opts: { short?: boolean } = {}): string {
  const names = entries.filter(([, e]) => e.slug).map(([, e]) => (opts.short ? (e.shortName ?? e.name) : e.name));
  return `${names.slice(0, -1).join(', ')}${last}${names[names.length - 1]}`;
}
