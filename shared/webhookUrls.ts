/**
 * Is this a webhook URL of that platform? Pure (no Node or server imports): the browser checks as the user types,
 * the server checks on save and again before sending (chat-platforms.md). The shapes:
 *   Slack       https://hooks.slack.com/services/T…/B…/<secret>     (GovSlack: hooks.slack-gov.com)
 *   Teams       https://prod-NN.<region>.logic.azure.com/workflows/<id>/triggers/manual/paths/invoke?…&sig=…
 *               https://<env>.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/<id>/triggers/manual/paths/invoke?…&sig=…
 *               legacy Office 365 connectors (*.webhook.office.com/webhookb2/…) accepted with a warning: being retired
 *   Mattermost  https://<any public host>[/<subpath>]/hooks/<26 lowercase alphanumerics>
 *   Discord     https://discord.com/api[/v10]/webhooks/<id>/<token>  (also discordapp.com, ptb., canary.)
 *   Webex       https://webexapis.com/v1/webhooks/incoming/<token>   (legacy api.ciscospark.com)
 *   Webhook     any https URL on a public host name (any port, any path): signed requests (Standard Webhooks)
 * Always https, port 443, no user name or password. `allowPrivate` (tests only, ALLOW_PRIVATE_WEBHOOKS) lets http and
 * loopback hosts through in place of the platform's host, but the path must still have the platform's shape.
 * Where a name resolves to is checked at connect time by the server's SSRF guard, not here.
 */
import { PLATFORM_REGISTRY, platformName, WEBHOOK_PLATFORMS, type WebhookPlatform } from '@/shared/platforms';

export type { WebhookPlatform };

export type WebhookUrlCheck =
  /** `url`: the normalised URL to store and post to. */
  | { ok: true; url: string; warning?: string }
  /** `message` is written for the person who pasted the URL; `error` is the same text, for server callers. */
  | { ok: false; message: string; error: string };

export type WebhookUrlOptions = { allowPrivate?: boolean };

const webhookUrlOf = (platform: WebhookPlatform) => PLATFORM_REGISTRY[platform].webhookUrl;

/** Each platform's example URL, from the registry (the connect form's placeholder). */
export const WEBHOOK_URL_EXAMPLES = Object.fromEntries(WEBHOOK_PLATFORMS.map((p) => [p, webhookUrlOf(p).example])) as Record<WebhookPlatform, string>;

const TEAMS_RETIRING_WARNING =
  'This is an Office 365 connector URL. Microsoft is retiring these connectors: create a Workflows webhook in Teams ' +
  '("Post to a channel when a webhook request is received") and paste its URL here to keep receiving reviews.';

/** "Slack, Microsoft Teams, Mattermost, Discord, Webex or Webhook". */
const WEBHOOK_PLATFORM_LIST = WEBHOOK_PLATFORMS.map(platformName).join(', ').replace(/, ([^,]*)$/, ' or $1');

function fail(message: string): WebhookUrlCheck {
  return { ok: false, message, error: message };
}

function notThisPlatform(platform: WebhookPlatform, hint = ''): WebhookUrlCheck {
  return fail(`That isn't ${webhookUrlOf(platform).kind} URL. It should look like ${WEBHOOK_URL_EXAMPLES[platform]}.${hint ? ` ${hint}` : ''}`);
}

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** An IP literal on a private, loopback, link-local, shared, reserved or multicast range; or a name no public DNS has. */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (isLoopbackHost(h)) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b, c] = [Number(v4[1]), Number(v4[2]), Number(v4[3])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
      (a === 169 && b === 254) || // link-local, cloud metadata
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0 && (c === 0 || c === 2)) ||
      (a === 198 && (b === 18 || b === 19)) ||
      (a === 198 && b === 51 && c === 100) ||
      (a === 203 && b === 0 && c === 113) ||
      a >= 224 // multicast, reserved, broadcast
    );
  }
  if (h.startsWith('[')) {
    const v6 = h.slice(1, -1);
    // Unspecified, loopback, IPv4-mapped/compatible (::…), unique-local (fc00::/7), link-local (fe80::/10), multicast.
    return v6.startsWith('::') || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || v6.startsWith('ff') || v6.startsWith('64:ff9b:');
  }
  return !h.includes('.') || /\.(local|localhost|internal|lan|home|corp|intranet)$/.test(h);
}

const SLACK_HOSTS = new Set(['hooks.slack.com', 'hooks.slack-gov.com']);
const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']);
const WEBEX_HOSTS = new Set(['webexapis.com', 'api.ciscospark.com']);

const SLACK_PATH = /^\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+\/?$/;
const TEAMS_WORKFLOW_PATH = /^\/workflows\/[A-Za-z0-9-]+\/triggers\/manual\/paths\/invoke\/?$/;
const TEAMS_POWER_PLATFORM_PATH = /^\/powerautomate\/automations\/direct\/workflows\/[A-Za-z0-9-]+\/triggers\/manual\/paths\/invoke\/?$/;
const MATTERMOST_PATH = /^(?:\/[^?#]*)?\/hooks\/[a-z0-9]{26}\/?$/;
const DISCORD_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/\d+\/[A-Za-z0-9_-]+\/?$/;
const WEBEX_PATH = /^\/v1\/webhooks\/incoming\/[A-Za-z0-9_=-]+\/?$/;

function checkSlack(u: URL, hostAllowed: boolean): WebhookUrlCheck {
  if (!hostAllowed && !SLACK_HOSTS.has(u.hostname)) return notThisPlatform('slack');
  if (/^\/(triggers|workflows)\//.test(u.pathname)) {
    return fail(
      `That is a Slack Workflow Builder link (…/triggers/… or …/workflows/…), which expects a different message format. ` +
        `Create an incoming webhook instead: it looks like ${WEBHOOK_URL_EXAMPLES.slack}.`,
    );
  }
  if (!SLACK_PATH.test(u.pathname)) return notThisPlatform('slack');
  return { ok: true, url: u.href };
}

function checkTeams(u: URL, hostAllowed: boolean): WebhookUrlCheck {
  const host = u.hostname;
  const legacyConnector =
    (/^[a-z0-9-]+\.webhook\.office\.com$/.test(host) && u.pathname.startsWith('/webhookb2/')) ||
    ((host === 'outlook.office.com' || host === 'outlook.office365.com') && u.pathname.startsWith('/webhook/'));
  if (legacyConnector) return { ok: true, url: u.href, warning: TEAMS_RETIRING_WARNING };

  const logicApps = hostAllowed || /^prod-\d+\.[a-z0-9-]+\.logic\.azure\.com$/.test(host);
  const powerPlatform = hostAllowed || /^[a-z0-9.-]+\.environment\.api\.powerplatform\.com$/.test(host);
  const shapeOk = (logicApps && TEAMS_WORKFLOW_PATH.test(u.pathname)) || (powerPlatform && TEAMS_POWER_PLATFORM_PATH.test(u.pathname));
  if (!shapeOk) return notThisPlatform('msteams');
  // The signature in the query string is the credential: without it the trigger refuses every post.
  if (!u.searchParams.get('sig')) {
    return fail('That Teams Workflows URL is missing its sig=… part. Copy the whole URL from the workflow, including everything after the "?".');
  }
  return { ok: true, url: u.href };
}

function checkMattermost(u: URL, privateAllowed: boolean): WebhookUrlCheck {
  if (!MATTERMOST_PATH.test(u.pathname)) return notThisPlatform('mattermost');
  if (!privateAllowed && isPrivateHost(u.hostname)) {
    return fail('That address is on a private network. ARB can only post to Mattermost servers that are reachable from the internet.');
  }
  return { ok: true, url: u.href };
}

function checkDiscord(u: URL, hostAllowed: boolean): WebhookUrlCheck {
  if (!hostAllowed && !DISCORD_HOSTS.has(u.hostname)) return notThisPlatform('discord');
  if (/\/(slack|github)\/?$/.test(u.pathname)) {
    return notThisPlatform('discord', 'Remove the /slack or /github ending: ARB posts in Discord’s own format.');
  }
  if (!DISCORD_PATH.test(u.pathname)) return notThisPlatform('discord');
  return { ok: true, url: u.href };
}

function checkWebex(u: URL, hostAllowed: boolean): WebhookUrlCheck {
  if (!hostAllowed && !WEBEX_HOSTS.has(u.hostname)) return notThisPlatform('webex');
  if (!WEBEX_PATH.test(u.pathname)) return notThisPlatform('webex');
  return { ok: true, url: u.href };
}

/** A signed webhook may go to any public https endpoint: a custom port is common (n8n, self-hosted services). */
function checkSignedWebhook(u: URL, privateAllowed: boolean): WebhookUrlCheck {
  if (!privateAllowed && isPrivateHost(u.hostname)) {
    return fail('That address is on a private network. ARB only sends to endpoints that are reachable from the internet.');
  }
  if (u.hash) return fail('Leave out the #… part: it is never sent to the server.');
  return { ok: true, url: u.href };
}

export function validateWebhookUrl(platform: WebhookPlatform | 'email', input: string, options: WebhookUrlOptions = {}): WebhookUrlCheck {
  if (platform === 'email') return fail('E-mail destinations take an e-mail address, not a webhook URL.');
  if (!(WEBHOOK_PLATFORMS as readonly string[]).includes(platform)) return fail(`Choose ${WEBHOOK_PLATFORM_LIST}.`);
  const raw = (input ?? '').trim();
  if (!raw) return fail(`Paste the ${PLATFORM_REGISTRY[platform].name} webhook URL. It should look like ${WEBHOOK_URL_EXAMPLES[platform]}.`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return notThisPlatform(platform);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return notThisPlatform(platform);
  if (u.username || u.password) return fail('A webhook URL never contains a user name or password. Copy the URL exactly as the platform shows it.');

  const allowPrivate = options.allowPrivate === true;
  const loopback = allowPrivate && isLoopbackHost(u.hostname);
  const relaxed = allowPrivate && (loopback || (platform === 'mattermost' && isPrivateHost(u.hostname)));
  if (!relaxed) {
    if (u.protocol !== 'https:') return fail(`Webhook URLs must start with https://. It should look like ${WEBHOOK_URL_EXAMPLES[platform]}.`);
    if (u.port !== '' && u.port !== '443' && platform !== 'webhook') return fail(`Webhook URLs use the standard https port (443). It should look like ${WEBHOOK_URL_EXAMPLES[platform]}.`);
  }

  const checks: Record<WebhookPlatform, (url: URL) => WebhookUrlCheck> = {
    slack: (url) => checkSlack(url, loopback),
    msteams: (url) => checkTeams(url, loopback),
    mattermost: (url) => checkMattermost(url, allowPrivate),
    discord: (url) => checkDiscord(url, loopback),
    webex: (url) => checkWebex(url, loopback),
    webhook: (url) => checkSignedWebhook(url, loopback),
  };
  return checks[platform](u);
}
