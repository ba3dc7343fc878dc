/**
 * Who may reply from Slack: a Slack user linked to an ARB member. Slack tells us only a workspace and a user id (and a
 * profile e-mail anyone can type), so a Slack user proves who they are on ARB once:
 *
 *   an unlinked Reply click → a note only they see, with a "Link your Slack account" URL: /slack/link#<token>, the
 *                             token signed for this Slack user, workspace and channel (purpose slack_link), valid
 *                             SLACK_LINK_TTL_SECONDS, good once (its nonce is kept in slack_link_uses)
 *   POST v1/slack/link       → signed in to ARB (the session's user read from the database), a member of the
 *                             channel's organisation: (team, Slack user) → that member is stored (slack_user_links)
 *   later clicks             → the link, and that the member is still in the organisation of the channel
 *
 * A member who is removed, leaves or joins another organisation loses the link at once (a trigger on users.org_id,
 * migration 0031), whatever path moved them; deleting the account or the organisation deletes it too.
 */
import { randomBytes } from 'node:crypto';
import type { AuthClaims } from '../auth/tokens';
import { env } from '../env';
import { badRequest, forbidden, HttpError } from '../http/errors';
import { log } from '../log';
import { recordAudit } from '../org/data';
import { membershipOf } from '../org/membership';
import { nowSeconds, signToken, verifyToken } from '../signedTokens';
import { saveSlackUserLink, slackDestinationOrg } from './data';

/** How long a "Link your Slack account" URL works after the click that made it. */
export const SLACK_LINK_TTL_SECONDS = 15 * 60;

export type SlackLinkRequest = { teamId: string; slackUserId: string; slackUserName: string | null; destinationId: string };

/** The one-time URL of ARB's linking page for this Slack user (the token in the fragment: never in a server's logs). */
export async function slackLinkUrl(input: SlackLinkRequest): Promise<string> {
  const token = await signToken(
    'slack_link',
    { team: input.teamId, su: input.slackUserId, ...(input.slackUserName ? { un: input.slackUserName } : {}), dst: input.destinationId, n: randomBytes(16).toString('base64url') },
    { expiresAt: nowSeconds() + SLACK_LINK_TTL_SECONDS },
  );
  return `${env().APP_URL}/slack/link#${token}`;
}

const CLICK_AGAIN = 'Click Reply on the message in Slack again for a new link.';

type LinkClaims = { team: string; su: string; un: string | null; dst: string; n: string; exp: number };

async function readLinkToken(token: string): Promise<LinkClaims> {
  const checked = await verifyToken(token, 'slack_link');
  if (!checked.ok) throw badRequest(checked.expired ? `This link has expired (it works for ${SLACK_LINK_TTL_SECONDS / 60} minutes). ${CLICK_AGAIN}` : `This is not a link ARB made. ${CLICK_AGAIN}`, 'invalid_link');
  const c = checked.claims;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const [team, su, dst, n] = [text(c.team), text(c.su), text(c.dst), text(c.n)];
  if (!team || !su || !dst || !n || typeof c.exp !== 'number') throw badRequest(`This is not a link ARB made. ${CLICK_AGAIN}`, 'invalid_link');
  return { team, su, un: text(c.un), dst, n, exp: c.exp };
}

export type SlackLinked = { slack_user: string };

/**
 * POST v1/slack/link: the signed-in caller becomes the replier for the Slack user the token names — only when the
 * caller is, now, a member of the organisation that owns the channel the click came from (a 403 otherwise, and the
 * link stays unused so the right person can still use it). Once per token (409 after).
 */
export async function linkSlackAccount(auth: AuthClaims | null, token: string): Promise<SlackLinked> {
  const claims = await readLinkToken(token);
  const member = await membershipOf(auth);
  const orgId = await slackDestinationOrg(claims.dst, claims.team);
  if (!orgId) throw new HttpError(404, 'not_found', 'The Slack channel this link came from is no longer connected to ARB, so there is nothing to link.');
  if (orgId !== member.orgId) {
    throw forbidden('This Slack channel belongs to an ARB organisation you are not a member of. Sign in with the account you use in that organisation (or ask its admin to invite you), then open the link again.');
  }
  const saved = await saveSlackUserLink({ teamId: claims.team, slackUserId: claims.su, userId: member.userId, orgId, nonce: claims.n, nonceExpiresAt: new Date(claims.exp * 1000) });
  if (!saved) throw new HttpError(409, 'link_used', `This link was already used. ${CLICK_AGAIN}`);
  const who = claims.un ? `@${claims.un}` : claims.su;
  await recordAudit({ orgId, actor: { userId: member.userId, email: member.email }, action: 'slack.linked', target: who, details: { team: claims.team, slack_user: claims.su } });
  log.info('slack user linked to a member', { team: claims.team });
  return { slack_user: who };
}
