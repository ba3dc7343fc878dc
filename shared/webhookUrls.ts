/**
 * Is this a webhook URL of that platform? Pure (no Node or server imports): the browser checks as the user types,
 * the server checks on save and again before sending (chat-platforms.md). The rules every platform shares live here:
 * always https, port 443 (unless the shape says `anyPort`), no user name or password. Each platform's own shape (its hosts,
 * its path, its own refusals) is its registry entry's `webhookUrl.shape` in `shared/platforms.ts`, run by
 * `validateWebhookUrl` below. `allowPrivate` (tests only, ALLOW_PRIVATE_WEBHOOKS) lets http and loopback hosts through
 * in place of the platform's host, but the path must still have the platform's shape.
 * Where a name resolves to is checked at connect time by the server's SSRF guard, not here.
 */
import {
  PLATFORM_REGISTRY,
  platformName,
  WEBHOOK_PLATFORMS,
  type WebhookPlatform,
  type WebhookShapeContext,
  type WebhookUrlCheck,
  type WebhookUrlShape,
} from '@/shared/platforms';

export type { WebhookPlatform, WebhookUrlCheck };

export type WebhookUrlOptions = { allowPrivate?: boolean };

const webhookUrlOf = (platform: WebhookPlatform) => PLATFORM_REGISTRY[platform].webhookUrl;
const shapeOf = (platform: WebhookPlatform): WebhookUrlShape => webhookUrlOf(platform).shape;

/** Each platform's example URL, from the registry (the connect form's placeholder). */
export const WEBHOOK_URL_EXAMPLES = Object.fromEntries(WEBHOOK_PLATFORMS.map((p) => [p, webhookUrlOf(p).example])) as Record<WebhookPlatform, string>;

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

  const { hosts, selfHosted, anyPort, check, path } = shapeOf(platform);
  const allowPrivate = options.allowPrivate === true;
  const loopback = allowPrivate && isLoopbackHost(u.hostname);
  const relaxed = allowPrivate && (loopback || (selfHosted === true && isPrivateHost(u.hostname)));
  if (!relaxed) {
    if (u.protocol !== 'https:') return fail(`Webhook URLs must start with https://. It should look like ${WEBHOOK_URL_EXAMPLES[platform]}.`);
    if (u.port !== '' && u.port !== '443' && anyPort !== true) return fail(`Webhook URLs use the standard https port (443). It should look like ${WEBHOOK_URL_EXAMPLES[platform]}.`);
  }

  if (hosts && !loopback && !hosts.includes(u.hostname)) return notThisPlatform(platform);
  const context: WebhookShapeContext = {
    loopback,
    allowPrivate,
    isPrivateHost,
    ok: (warning) => (warning ? { ok: true, url: u.href, warning } : { ok: true, url: u.href }),
    notThisPlatform: (hint) => notThisPlatform(platform, hint),
    fail,
  };
  const answer = check?.(u, context);
  if (answer) return answer;
  if (path && !path.test(u.pathname)) return notThisPlatform(platform);
  return { ok: true, url: u.href };
}
