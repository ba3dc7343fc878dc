/**
 * Who may act on a review from Slack: the destination the click came from must still be connected through "Add to
 * Slack" from the dashboard (its workspace is the one the click came from), and the clicker a Slack user linked to a
 * member of the destination's organisation (server/slack/links.ts) who is still in it. Checked on every click, draft
 * and submission; otherwise, the words to tell them — with a one-time link to link their Slack account when that is
 * what is missing.
 */
import { linkedMember, replyingDestination, type OrgMember, type ReplyingDestination } from './data';
import { slackLinkUrl } from './links';
import { SLACK_NOTES } from './replyView';

export type SlackUser = { id: string; name?: string; username?: string };
export type Replier = { destination: ReplyingDestination & { orgId: string; botToken: string }; member: OrgMember };
/** `note` for a message (Slack's mrkdwn, links work); `formNote` instead inside a form, where text is plain. */
export type Refusal = { note: string; formNote?: string };

/** Slack's answers that mean the workspace's token no longer works (removed app, or installed without a scope). */
export const LOST_ACCESS = ['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed'];

/** The destination the click came from, and the clicker as a linked member of its organisation — or what to tell them. */
export async function replierFor(destinationId: string, teamId: string | undefined, user: SlackUser | undefined): Promise<Replier | Refusal> {
  const destination = await replyingDestination(destinationId);
  if (!destination || !destination.teamId || destination.teamId !== teamId || destination.status === 'disabled' || !destination.orgId) return { note: SLACK_NOTES.notConnected };
  if (!destination.botToken) return { note: SLACK_NOTES.reinstall };
  if (!user?.id) return { note: SLACK_NOTES.notConnected };
  const member = await linkedMember(destination.teamId, user.id);
  if (!member || member.orgId !== destination.orgId) {
    const url = await slackLinkUrl({ teamId: destination.teamId, slackUserId: user.id, slackUserName: user.username ?? user.name ?? null, destinationId });
    const orgName = destination.orgName ?? 'this organisation';
    return { note: SLACK_NOTES.linkFirst(orgName, url, Boolean(member)), formNote: SLACK_NOTES.notLinked(orgName) };
  }
  return { destination: destination as Replier['destination'], member: { userId: member.userId, email: member.email, name: member.name } };
}
