/**
 * The one path every connection takes — pasted webhook, e-mail address, Slack or Discord install: abuse checks, the
 * app looked up and registered, then the monitoring engine's createDestination, which is idempotent per app × webhook,
 * watches the storefronts the payload chose (server/monitor/wantedSources.ts: one storefront, or "all countries") and
 * queues the welcome (intro + last 5 reviews). createDestination also wakes this process's poll and delivery loops,
 * so on a fresh app the first poll starts at once and the welcome follows it within a second or two.
 */
import type { AuthClaims } from '../auth/tokens';
import { HttpError, unauthorized } from '../http/errors';
import { enforceRateLimit, ipRateKey, type RateLimitRule } from '../http/rateLimit';
import { log } from '../log';
import { PLATFORM_NAMES } from '../destinations/deliver';
import { recordAudit } from '../org/data';
import { requireRole, type Membership } from '../org/membership';
import { createDestination, destinationTargetHash, type DestinationTarget } from '../monitor/service';
import { getDestinationStatus, type DestinationStatus } from '../destinations/records';
import { assertAppsWithinLimit, assertChannelWithinLimit } from '../plans/limits';
import { appKey } from '../monitor/apps';
import { dashboardConnectionApp } from '../orgApps/service';
import { storefrontsFor } from '../monitor/wantedSources';
import { isAddressUnsubscribed } from '../subscriptions/data';
import { registerApp, type RegisteredApp } from './apps';
import { requestDestinationConfirmation, type ConfirmationNotice } from './emailConsent';
import { mailboxDomain, mailboxKey } from './mailbox';
import type { ConnectRequest, ConnectTarget } from './payload';

export const CONNECT_LIMITS = {
  /** Connections started from one network: generous for a team trying every platform, useless for spraying webhooks. */
  perIp: { name: 'connect:ip', limit: 30, windowSeconds: 3600 } satisfies RateLimitRule,
  /** Sign-ups one mailbox can get in a day through the public flow (counted by mailboxKey: `ana+1@` is `ana@`). */
  perAddress: { name: 'connect:email', limit: 3, windowSeconds: 86_400 } satisfies RateLimitRule,
  /** Sign-ups of addresses at one recipient domain in an hour: a stranger cannot spray a company's mailboxes. */
  perDomain: { name: 'connect:email-domain', limit: 30, windowSeconds: 3600 } satisfies RateLimitRule,
};

export type ConnectResult = {
  destination_id: string;
  platform: ConnectRequest['platform'];
  app: RegisteredApp;
  /** False when this app was already connected to this webhook: the existing destination is returned. */
  created: boolean;
  /** Channel name when the platform told us (Slack installs). */
  label: string | null;
  warning: string | null;
  status: DestinationStatus;
  /** E-mail destinations waiting for their mailbox: the confirmation e-mail, in words. Null otherwise. */
  confirmation: ConfirmationNotice | null;
  /** A new Webhook destination's signing secret: shown once, here. */
  signing_secret?: string | null;
};

/** An address that clicked "unsubscribe" in any ARB e-mail is not signed up again by a stranger's form. */
async function assertAddressMayBeMailed(email: string): Promise<void> {
  // An e-mail destination is only ever disabled as unsubscribed because its address is (server/destinations/deliver.ts),
  // so the address's own state is the one question to ask.
  if (await isAddressUnsubscribed(email)) {
    throw new HttpError(
      409,
      'address_unsubscribed',
      'This address unsubscribed from ARB e-mails, so we won’t sign it up again from this form. To get reviews by e-mail again, use the “Get reviews by e-mail” page: it sends a confirmation link first.',
    );
  }
}

export type ConnectContext = {
  ip: string;
  auth: AuthClaims | null;
  label?: string | null;
  /** The Slack workspace an "Add to Slack" install came from (already saved by saveSlackWorkspace). */
  slackTeamId?: string;
  /** The channel of that install (Slack's answer names it), with slackTeamId only. */
  slackChannelId?: string;
  /**
   * A signed-in user connecting their own address (the one they signed in with) skips the confirmation e-mail: they
   * proved the mailbox is theirs when they signed in. Ignored for any other address or without a sign-in.
   */
  ownAddressConfirmed?: boolean;
};

/** True when the signed-in user connects the very address they signed in with (same mailbox, any spelling). */
function isOwnAddress(email: string, auth: AuthClaims | null): boolean {
  return Boolean(auth?.email && auth.scope === 'full' && mailboxKey(auth.email) === mailboxKey(email));
}

/** The checked target as the engine takes it: the webhook for its own platform, or the address. */
function destinationTarget(platform: ConnectRequest['platform'], target: ConnectTarget): DestinationTarget {
  if (target.kind === 'email') return { platform: 'email', email: target.email };
  if (platform === 'email') throw new Error('a webhook target for an e-mail connection');
  return { platform, url: target.url, warning: target.warning };
}

/**
 * A signed-in caller (the dashboard's "Add destination" sends its session) connects for their organisation, which
 * takes an admin: the organisation and role are read from the database, not the token. Without a session the
 * connection is anonymous, as on the home page.
 */
async function connectingMember(auth: AuthClaims | null): Promise<Membership | null> {
  return auth?.scope === 'full' ? requireRole(auth, 'admin', 'add destinations') : null;
}

export async function connectDestination(req: ConnectRequest & { target: ConnectTarget }, ctx: ConnectContext): Promise<ConnectResult> {
  const member = await connectingMember(ctx.auth);
  // A signed webhook's secret is shown once and rotated from the dashboard: it belongs to an organisation.
  if (req.platform === 'webhook' && !member) throw unauthorized('Sign in to add a Webhook destination: it belongs to your organisation, whose dashboard shows and rotates its signing secret.');
  await enforceRateLimit(CONNECT_LIMITS.perIp, ipRateKey(ctx.ip), 'Too many connections from your network in the last hour. Try again later.');
  if (req.target.kind === 'email') {
    await enforceRateLimit(CONNECT_LIMITS.perAddress, mailboxKey(req.target.email), 'This address was signed up several times today already. Try again tomorrow.');
    await enforceRateLimit(CONNECT_LIMITS.perDomain, mailboxDomain(req.target.email), 'Too many addresses at this e-mail domain were signed up in the last hour. Try again later.');
    await assertAddressMayBeMailed(req.target.email);
  }
  const addressConfirmed = req.target.kind === 'email' && Boolean(ctx.ownAddressConfirmed) && isOwnAddress(req.target.email, ctx.auth);
  // The organisation is the member's, read from the database: never the token's claim.
  const orgId = member?.orgId ?? null;
  if (orgId) await assertChannelWithinLimit(orgId, { platform: req.platform, targetHash: destinationTargetHash(req.platform, req.target.kind === 'email' ? req.target.email : req.target.url) });
  // Its app becomes one of the organisation's apps, counted against the plan like one added on the Apps page.
  if (orgId) await assertAppsWithinLimit(orgId, [appKey(req.app)]);
  const orgApp = member ? dashboardConnectionApp(member, req.app, storefrontsFor(req.country)) : null;

  // The app is looked up in the first storefront watched ('us' for all countries).
  const app = await registerApp(req.app, storefrontsFor(req.country)[0]);
  const created = await createDestination({
    ...destinationTarget(req.platform, req.target),
    orgId,
    label: ctx.label ?? undefined,
    ...(ctx.slackTeamId ? { slackTeamId: ctx.slackTeamId, ...(ctx.slackChannelId ? { slackChannelId: ctx.slackChannelId } : {}) } : {}),
    apps: [{ store: req.app.store, appId: req.app.appId }],
    ...(req.app.store === 'apple_app_store' ? { country: req.country } : {}),
    createdByEmail: req.userEmail ?? ctx.auth?.email ?? undefined,
    addressConfirmed,
    // Counted again with the organisation's row held, so concurrent connections cannot both take the last channel or app.
    ...(orgApp ? { beforeInsert: orgApp.beforeInsert } : {}),
  });
  // Read as the connection left it, before the org app's follow-up (as createDestination answered it).
  const status = (await getDestinationStatus(created.id))!;
  await orgApp?.after(app.title);
  if (member && created.created) {
    await recordAudit({ orgId: member.orgId, actor: { userId: member.userId, email: member.email }, action: 'destination.added', target: `${PLATFORM_NAMES[req.platform]} ${status.label ?? status.target}`, details: { id: created.id, app: status.app?.title ?? null } });
  }
  const pending = status.status === 'pending_confirmation';
  const confirmation = pending && req.target.kind === 'email' ? await requestDestinationConfirmation(created.id, req.target.email) : null;
  log.info('connection made', { destinationId: created.id, platform: req.platform, created: created.created, pending, source: req.source, country: req.country || null });
  return {
    destination_id: created.id,
    platform: req.platform,
    app,
    created: created.created,
    label: status.label,
    warning: created.warning,
    status: confirmation?.sent ? { ...status, confirmation_sent_at: confirmation.sent_at } : status,
    confirmation,
    ...(req.platform === 'webhook' ? { signing_secret: created.signingSecret } : {}),
  };
}
