/**
 * The signed-in app's organisation and team calls: validate → who is calling, with which role → service → answer.
 * Everything is scoped to the caller's organisation; an id from another organisation is simply not found (404).
 */
import { z } from 'zod';
import { endpoint, pageAnswer } from '../http/api';
import { emailAddress } from '../http/schemas';
import type { AuditEntry, Invitation, ListedInvitation, Member } from './data';
import { cancelInvitation, inviteMember } from './invitations';
import { membershipOf, requireRole, type Membership } from './membership';
import { INVITABLE_ROLES, ORG_ROLES } from '@/shared/orgRoles';
import { orgPlanOf, usageFor } from '../plans/plans';
import { featuresShape, limitsShape, planIdShape, planJson, usageShape } from '../plans/schemas';
import { deleteOrganisation } from '../flows/orgDeletion';
import { auditLogOf, changeMemberRole, leaveOrganisation, organisationOf, removeMember, renameOrganisation, membersOf, openInvitationsOf, type Departure } from './team';
import { keyJson, keyShape } from '../apiKeys/endpoints';
import { orgNameProblem } from '@/shared/orgNames';
import { llmConfig } from '../ai/llm/config';
import { translatorsFromEnv } from '../ai/translate';

const USER_ID = /^usr_[A-Za-z0-9]{1,64}$/;
const INVITATION_ID = /^inv_[A-Za-z0-9]{1,64}$/;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const role = z.enum(ORG_ROLES as ['owner', 'admin', 'member'], 'role must be owner, admin or member.');
const invitableRole = z.enum(INVITABLE_ROLES, 'role must be admin or member.');
const idParam = (pattern: RegExp, what: string) =>
  z.object({ id: z.string() }).transform(({ id }, ctx) => {
    if (!pattern.test(id)) ctx.addIssue({ code: 'custom', message: `id: not ${what} id.` });
    return { id };
  });

const memberShape = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role,
  joined_at: z.string(),
  last_sign_in_at: z.string().nullable(),
  you: z.boolean().meta({ description: 'This member is the caller.' }),
});
const invitationShape = z.object({
  id: z.string(),
  email: z.string(),
  role: invitableRole,
  created_at: z.string(),
  expires_at: z.string(),
  created_by: z.string().nullable().meta({ description: 'The e-mail of the member who sent it; null once they are no longer a member ("a former member").' }),
  mailed_at: z.string().nullable().meta({ description: 'When its e-mail went out; null when none did (the address unsubscribed from ARB e-mails: signing in with it joins).' }),
});
const invitationMailShape = z.object({
  sent: z.boolean().meta({ description: 'Whether this call sent the invitation e-mail (false: one was sent within the last 10 minutes).' }),
  sent_at: z.string().nullable(),
  resend_after: z.string().nullable().meta({ description: 'When inviting the address again will send another e-mail.' }),
  message: z.string(),
});
/** What someone who left had made that outlived them (the removal's and the leaving's answer). */
const departureShape = z.object({
  ok: z.literal(true),
  revoked_invitations: z.array(z.object({ id: z.string(), email: z.string(), role: invitableRole })).meta({ description: 'Their open invitations, revoked now: the links stop working.' }),
  api_keys: z.array(keyShape).meta({ description: 'The API keys they created that still work: they belong to the organisation; revoke those nobody needs (DELETE v1/org/api-keys/{id}).' }),
});
/** An organisation's name is shown in invitation e-mails to outsiders: shared/orgNames.ts says what it may be. */
const organisationName = z
  .string('name must be a string.')
  .trim()
  .superRefine((v, ctx) => {
    const problem = orgNameProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const auditShape = z.object({
  id: z.string(),
  actor_email: z.string().nullable(),
  action: z.string().meta({ description: 'org.renamed, member.invited, invitation.role_changed, invitation.revoked, member.joined, invitation.declined, member.role_changed, member.removed, member.left, destination.added, destination.updated, destination.paused, destination.resumed, destination.deleted, api_key.created, api_key.revoked' }),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});

const memberJson = (m: Membership) => (u: Member): z.infer<typeof memberShape> => ({
  id: u.id,
  email: u.email,
  name: u.display_name ?? u.name,
  role: u.role,
  joined_at: iso(u.created_at)!,
  last_sign_in_at: iso(u.last_sign_in_at),
  you: u.id === m.userId,
});
const invitationJson = (i: ListedInvitation): z.infer<typeof invitationShape> => ({
  id: i.id,
  email: i.email,
  role: i.role,
  created_at: iso(i.created_at)!,
  expires_at: iso(i.expires_at)!,
  created_by: i.invited_by_email,
  mailed_at: iso(i.mailed_at),
});
const departureJson = (d: Departure): z.infer<typeof departureShape> => ({
  ok: true,
  revoked_invitations: d.revokedInvitations.map((i: Invitation) => ({ id: i.id, email: i.email, role: i.role })),
  api_keys: d.workingKeys.map(keyJson),
});
const auditJson = (e: AuditEntry) => ({ id: e.id, actor_email: e.actor_email, action: e.action, target: e.target, details: e.details, created_at: iso(e.created_at)! });

export const getOrganisation = endpoint({
  summary: "The caller's organisation, their role in it, its plan's limits and what it uses of them",
  tags: ['org'],
  auth: 'user',
  response: z.object({
    id: z.string(),
    name: z.string(),
    plan: planIdShape,
    plan_name: z.string(),
    role,
    members: z.number(),
    created_at: z.string(),
    usage: usageShape,
    limits: limitsShape,
    features: featuresShape,
    ai: z
      .object({ language_model: z.boolean(), translation: z.boolean() })
      .meta({ description: 'What this server can do: a language model (Draft a reply, AI answers), a translator (Translate). false: the dashboard disables the action and says why.' }),
  }),
  handler: async ({ auth }) => {
    const org = await organisationOf(await membershipOf(auth));
    const [plan, usage] = await Promise.all([orgPlanOf(org.id), usageFor(org.id)]);
    const ai = { language_model: !!llmConfig(), translation: translatorsFromEnv().length > 0 };
    return { id: org.id, name: org.name, role: org.role, members: org.members, created_at: iso(org.created_at)!, ...planJson(plan, usage), ai };
  },
});

export const updateOrganisation = endpoint({
  summary: 'Rename the organisation (admins and owners)',
  tags: ['org'],
  auth: 'user',
  body: z.object({
    name: organisationName,
  }),
  response: z.object({ name: z.string() }),
  handler: async ({ auth, body }) => {
    await renameOrganisation(await requireRole(auth, 'admin', 'rename it'), body.name);
    return { name: body.name };
  },
});

export const deleteOrganisationEndpoint = endpoint({
  statuses: [409],
  summary: "Delete the organisation with your account, its destinations, apps list, keys and audit log (the owner, after typing its name; a running subscription is cancelled first). The other members keep their accounts, each in an organisation of their own",
  tags: ['org'],
  auth: 'user',
  body: z.object({ confirm: z.string('confirm: type the organisation\'s name.').max(200) }),
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, body }) => {
    await deleteOrganisation(await requireRole(auth, 'owner', 'delete the organisation'), body.confirm);
    return { ok: true as const };
  },
});

export const listOrgMembers = endpoint({
  summary: "The organisation's members",
  tags: ['org'],
  auth: 'user',
  response: z.array(memberShape),
  handler: async ({ auth }) => {
    const m = await membershipOf(auth);
    return (await membersOf(m)).map(memberJson(m));
  },
});

export const updateOrgMember = endpoint({
  statuses: [404, 409],
  summary: "Change a member's role (admins for members and admins, owners for owners)",
  tags: ['org'],
  auth: 'user',
  params: idParam(USER_ID, 'a member'),
  body: z.object({ role }),
  response: memberShape,
  handler: async ({ auth, params, body }) => {
    const m = await requireRole(auth, 'admin', 'change roles');
    return memberJson(m)(await changeMemberRole(m, params.id, body.role));
  },
});

export const deleteOrgMember = endpoint({
  statuses: [404, 409],
  summary: 'Remove a member (admins and owners); they keep their account, in an organisation of their own. Their open invitations are revoked; the API keys they created that still work are listed',
  tags: ['org'],
  auth: 'user',
  params: idParam(USER_ID, 'a member'),
  response: departureShape,
  handler: async ({ auth, params }) => departureJson(await removeMember(await requireRole(auth, 'admin', 'remove members'), params.id)),
});

export const leaveOrg = endpoint({
  statuses: [409],
  summary: "Leave the organisation (every session of the caller ends; the account stays, in an organisation of its own). The caller's open invitations are revoked; the API keys they created stay, listed for the admins",
  tags: ['org'],
  auth: 'user',
  response: departureShape,
  handler: async ({ auth }) => departureJson(await leaveOrganisation(await membershipOf(auth))),
});

export const listOrgInvitations = endpoint({
  summary: 'Open invitations (admins and owners)',
  tags: ['org'],
  auth: 'user',
  response: z.array(invitationShape),
  handler: async ({ auth }) => (await openInvitationsOf(await requireRole(auth, 'admin', 'see invitations'))).map(invitationJson),
});

export const createOrgInvitation = endpoint({
  statuses: [201, 402, 409, 502],
  summary:
    'Invite someone by e-mail (admins and owners); the e-mail carries a link to the invitation, which they accept to join. 201: a new invitation, e-mailed. 200: the open invitation, e-mailed less than 10 minutes ago, answered without another e-mail. 409 address_unsubscribed: no e-mail (the invitation is open: signing in with the address shows it, to accept)',
  tags: ['org'],
  auth: 'user',
  body: z.object({ email: emailAddress, role: invitableRole.default('member') }),
  response: invitationShape.extend({ mail: invitationMailShape }),
  handler: async (ctx) => {
    const outcome = await inviteMember(await requireRole(ctx.auth, 'admin', 'invite members'), ctx.body);
    ctx.status = outcome.created ? 201 : 200;
    const { mail } = outcome;
    return { ...invitationJson(outcome.invitation), mail: { sent: mail.sent, sent_at: iso(mail.sentAt), resend_after: iso(mail.resendAfter), message: mail.message } };
  },
});

export const deleteOrgInvitation = endpoint({
  statuses: [404],
  summary: 'Cancel an open invitation (admins and owners); its link stops working',
  tags: ['org'],
  auth: 'user',
  params: idParam(INVITATION_ID, 'an invitation'),
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await cancelInvitation(await requireRole(auth, 'admin', 'cancel invitations'), params.id);
    return { ok: true as const };
  },
});

export const listOrgAuditLog = endpoint({
  summary: 'Who changed what and when in the organisation, newest first (admins and owners)',
  tags: ['org'],
  auth: 'user',
  query: z.object({
    limit: z.coerce.number('limit must be a number.').int().min(1, 'limit must be 1 to 100.').max(100, 'limit must be 1 to 100.').default(50),
    before: z
      .string()
      .regex(/^\d{1,18}$/, 'before must be the id of an audit entry.')
      .optional(),
  }),
  response: z.array(auditShape),
  paged: true,
  handler: async ({ auth, query }) => {
    const page = await auditLogOf(await requireRole(auth, 'admin', 'read the audit log'), query);
    return pageAnswer(page.data.map(auditJson), page.has_more);
  },
});
