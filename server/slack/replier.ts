/**
 * Who may act on a review from Slack: the destination the click came from must still be connected through "Add to
 * Slack" and claimed by an organisation, and the clicker a member of it (their Slack profile's e-mail against the
 * organisation's members). Checked on every click and submission; otherwise, the words to tell them.
 */
import { env } from '../env';
import { memberByEmail, replyingDestination, type OrgMember, type ReplyingDestination } from './data';
import { SLACK_NOTES } from './replyView';
import { SlackApiError, slackUserEmail } from './web';

export type SlackUser = { id: string; name?: string; username?: string };
export type Replier = { destination: ReplyingDestination & { orgId: string; botToken: string }; member: OrgMember };
export type Refusal = { note: string };

/** Slack's answers that mean the workspace's token no longer works (removed app, or installed without a scope). */
export const LOST_ACCESS = ['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed'];

/** The destination the click came from, and the clicker as a member of its organisation — or what to tell them. */
export async function replierFor(destinationId: string, teamId: string | undefined, user: SlackUser | undefined): Promise<Replier | Refusal> {
  const destination = await replyingDestination(destinationId);
  if (!destination || !destination.teamId || destination.teamId !== teamId || destination.status === 'disabled') return { note: SLACK_NOTES.notConnected };
  const appUrl = env().APP_URL;
  if (!destination.orgId) return { note: SLACK_NOTES.unclaimed(appUrl) };
  if (!destination.botToken) return { note: SLACK_NOTES.reinstall };
  if (!user?.id) return { note: SLACK_NOTES.notMember(destination.orgName ?? 'this organisation', null, appUrl) };
  let email: string | null;
  try {
    email = await slackUserEmail(destination.botToken, user.id);
  } catch (err) {
    const code = err instanceof SlackApiError ? err.code : 'error';
    // invalid_auth / token_revoked / account_inactive: the workspace removed ARB; missing_scope: installed before replies.
    if ([...LOST_ACCESS, 'missing_scope'].includes(code)) return { note: SLACK_NOTES.reinstall };
    return { note: SLACK_NOTES.slackRefused(code) };
  }
  const member = email ? await memberByEmail(destination.orgId, email) : undefined;
  if (!member) return { note: SLACK_NOTES.notMember(destination.orgName ?? 'this organisation', email, appUrl) };
  return { destination: destination as Replier['destination'], member };
}
