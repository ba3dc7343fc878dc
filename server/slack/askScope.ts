/**
 * Which reviews a question asked in Slack may read, decided from where it was asked and by whom:
 *
 *   a channel ARB posts reviews to  → the apps of that channel's destinations ("Add to Slack" from the dashboard, the
 *                                     workspace and channel kept with them), for whoever asks: everyone in the channel
 *                                     already reads those reviews there. Several organisations in one channel → the
 *                                     asker's, when they are linked to a member of one of them.
 *   a direct message (channel D…)   → every app of the organisation of the ARB member the Slack user is linked to
 *                                     (server/slack/links.ts); unlinked, the words to link, with a one-time link when
 *                                     the workspace's channels belong to one organisation (only in a note the asker
 *                                     alone sees: the link is theirs)
 *   any other channel               → the words to get an answer there (connect the channel, or ask in a DM)
 */
import { orgScope } from '../askArb/tools';
import type { AskScope } from '../askArb/types';
import { channelApps, orgName, workspaceOrgs } from './askData';
import { linkedMember } from './data';
import { slackLinkUrl } from './links';
import { slackText } from './askMessage';

export type SlackPlace = { teamId: string; channelId: string; userId: string; userName?: string | null };

export type SlackScope = { scope: AskScope & { orgId: string }; orgName: string; where: 'channel' | 'dm' };
export type SlackScopeRefusal = { note: string };

/** Slack's ids of direct-message channels start with D. */
export const isDirectMessage = (channelId: string) => channelId.startsWith('D');

export const SCOPE_NOTES = {
  channelNotConnected:
    'ARB does not post reviews to this channel, so there are no reviews here to answer from. An admin can add this channel in the ARB dashboard (*Add destination* → *Add to Slack*, then pick this channel); or ask ARB in a direct message once your Slack account is linked to ARB.',
  severalOrgs:
    'This channel gets reviews from more than one ARB organisation, so ARB answers here only those linked to a member of one of them: click *Reply* on one of your organisation’s review messages and follow the link, then ask again.',
  linkHow:
    'To ask ARB in a direct message, link your Slack account to your ARB account first: click *Reply* on a review message ARB posted in one of your channels and follow the link. Or ask in that channel: questions there are about its apps.',
  linkFirst: (org: string, url: string) =>
    `To ask ARB about ${slackText(org)}’s apps in a direct message, link your Slack account to your ARB account first (once): <${url}|Link your Slack account> — sign in to ARB as a member of ${slackText(org)} and confirm, then ask again. The link works once, for 15 minutes, and only for you: don’t share it.`,
  noApps: (org: string) => `${slackText(org)} has no apps in ARB yet. Add one in the dashboard, then ask again.`,
} as const;

/** `allowLink`: a one-time link may be put in the answer (only where the asker alone sees it). */
export async function slackAskScope(place: SlackPlace, options: { allowLink: boolean }): Promise<SlackScope | SlackScopeRefusal> {
  if (isDirectMessage(place.channelId)) return directMessageScope(place, options);
  const apps = await channelApps(place.teamId, place.channelId);
  if (!apps.length) return { note: SCOPE_NOTES.channelNotConnected };
  let orgId = apps[0].orgId;
  if (apps.some((a) => a.orgId !== orgId)) {
    const member = await linkedMember(place.teamId, place.userId);
    if (!member || !apps.some((a) => a.orgId === member.orgId)) return { note: SCOPE_NOTES.severalOrgs };
    orgId = member.orgId;
  }
  const own = apps.filter((a) => a.orgId === orgId);
  return { scope: { orgId, apps: own.map((a) => ({ appStore: a.appStore, appId: a.appId, title: a.title })) }, orgName: own[0].orgName, where: 'channel' };
}

async function directMessageScope(place: SlackPlace, options: { allowLink: boolean }): Promise<SlackScope | SlackScopeRefusal> {
  const member = await linkedMember(place.teamId, place.userId);
  if (member) {
    const name = (await orgName(member.orgId)) ?? 'Your organisation';
    const scope = await orgScope(member.orgId);
    if (!scope.apps.length) return { note: SCOPE_NOTES.noApps(name) };
    return { scope: { ...scope, orgId: member.orgId }, orgName: name, where: 'dm' };
  }
  const orgs = options.allowLink ? await workspaceOrgs(place.teamId) : [];
  if (orgs.length !== 1) return { note: SCOPE_NOTES.linkHow };
  const url = await slackLinkUrl({ teamId: place.teamId, slackUserId: place.userId, slackUserName: place.userName ?? null, destinationId: orgs[0].destinationId });
  return { note: SCOPE_NOTES.linkFirst(orgs[0].orgName, url) };
}
