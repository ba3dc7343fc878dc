/**
 * The invitee's side of invitations: the signed-in person's open invitations (the dashboard's banner), accepting or
 * declining one, and the preview of an invitation link's page, which changes nothing. Accepting is the only way to
 * join an organisation (a sign-in never does): what it does to the invitee's own organisation is shown first and
 * checked again in the move (move.ts).
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { enforceRateLimit, ipRateKey } from '../http/rateLimit';
import { acceptInvitation } from '../flows/signIn';
import { declineInvitation, invitationsOf, previewInvitation, type InviteeView } from './invitations';
import { INVITABLE_ROLES } from '@/shared/orgRoles';

const INVITATION_ID = /^inv_[A-Za-z0-9]{1,64}$/;
const PREVIEW_LIMIT = { name: 'invitation-preview:ip', limit: 60, windowSeconds: 600 };

const idParam = z.object({ id: z.string() }).transform(({ id }, ctx) => {
  if (!INVITATION_ID.test(id)) ctx.addIssue({ code: 'custom', message: 'id: not an invitation id.' });
  return { id };
});

const outcomeShape = z
  .object({
    kind: z.enum(['leaves', 'deletes_empty', 'deletes_holdings', 'blocked']).meta({
      description:
        'leaves: the current organisation stays with its other members; deletes_empty: it holds nothing and is deleted; deletes_holdings: it is deleted with what it holds, only with delete_current; blocked: accepting is refused now (text says why).',
    }),
    text: z.string().meta({ description: 'The same in plain words, to show before accepting.' }),
  })
  .nullable()
  .meta({ description: 'What accepting does to the organisation the invitee is in now; null when nothing (already in, or no account yet).' });

const inviteeShape = z.object({
  id: z.string(),
  organisation: z.string().meta({ description: 'The name of the organisation inviting.' }),
  inviter: z.string().nullable().meta({ description: 'Who sent it, while they are still a member there.' }),
  email: z.string().meta({ description: 'The invited address (whom accepting signs in).' }),
  role: z.enum(INVITABLE_ROLES),
  expires_at: z.string(),
  outcome: outcomeShape,
});

const inviteeJson = (i: InviteeView): z.infer<typeof inviteeShape> => ({
  id: i.id,
  organisation: i.org_name,
  inviter: i.inviter_email,
  email: i.email,
  role: i.role,
  expires_at: new Date(i.expires_at).toISOString(),
  outcome: i.outcome ? { kind: i.outcome.kind, text: i.outcome.text } : null,
});

const sessionAnswer = z.object({
  authToken: z.string(),
  refreshToken: z.string(),
  email: z.string(),
  name: z.string().optional(),
  displayName: z.string().optional(),
  organisation: z.string().meta({ description: 'The organisation joined.' }),
});

export const listMyInvitations = endpoint({
  summary: 'The open invitations to the signed-in address, each with what accepting it would do to their organisation',
  tags: ['org'],
  auth: 'user',
  response: z.array(inviteeShape),
  handler: async ({ auth }) => (await invitationsOf(auth!.userId)).map(inviteeJson),
});

export const acceptMyInvitation = endpoint({
  statuses: [404, 409],
  summary: 'Accept an invitation to the signed-in address: join its organisation (every other session ends; the answer is the new session)',
  tags: ['org'],
  auth: 'user',
  params: idParam,
  body: z
    .object({
      delete_current: z
        .boolean('delete_current must be true or false.')
        .optional()
        .meta({ description: 'The invitee chose to delete the organisation they are alone in, with what it holds (otherwise 409 confirm_delete).' }),
    })
    .nullish(),
  response: sessionAnswer,
  handler: ({ auth, params, body }) => acceptInvitation(auth!, params.id, !!body?.delete_current),
});

export const declineMyInvitation = endpoint({
  statuses: [404],
  summary: 'Decline an invitation to the signed-in address: it closes, and its organisation’s audit log says so',
  tags: ['org'],
  auth: 'user',
  params: idParam,
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await declineInvitation(auth!.userId, params.id);
    return { ok: true as const };
  },
});

export const previewInvitationLink = endpoint({
  statuses: [401, 404, 409],
  summary: "What an invitation link offers (organisation, role, inviter, address) and what accepting would do; changes nothing",
  tags: ['org'],
  body: z.object({ token: z.string('token must be a string.').min(1, 'token is missing.').max(200) }),
  response: inviteeShape.extend({ account: z.boolean().meta({ description: 'The invited address has an account already.' }) }),
  handler: async ({ body, ip }) => {
    await enforceRateLimit(PREVIEW_LIMIT, ipRateKey(ip), 'Too many invitation links opened from your network. Try again later.');
    const view = await previewInvitation(body.token);
    return { ...inviteeJson(view), account: view.account };
  },
});
