/** An audit-log entry in plain words, e.g. "invited bob@example.com as admin". Pure, for the Team page and its tests. */
import type { AuditEntry } from '@/lib/api/org';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function describeAuditEntry(e: Pick<AuditEntry, 'action' | 'target' | 'details'>): string {
  const who = e.target ?? 'someone';
  const d = e.details;
  switch (e.action) {
    case 'org.renamed':
      return `renamed the organisation from “${str(d.from)}” to “${str(d.to)}”`;
    case 'member.invited':
      return `invited ${who} as ${str(d.role)}`;
    case 'invitation.revoked':
      return d.reason === 'inviter_left' ? `cancelled the invitation of ${who}, sent by ${str(d.inviter)}, who left` : `cancelled the invitation of ${who}`;
    case 'invitation.role_changed':
      return `changed the invitation of ${who} from ${str(d.from)} to ${str(d.to)}`;
    case 'member.joined':
      return `joined as ${str(d.role)}`;
    case 'member.role_changed':
      return `changed the role of ${who} from ${str(d.from)} to ${str(d.to)}`;
    case 'member.removed':
      return `removed ${who}`;
    case 'member.left':
      if (d.reason === 'organisation_deleted') return `came here when “${str(d.organisation)}” was deleted by its owner`;
      return d.reason === 'joined_another' ? 'left the organisation to join another' : 'left the organisation';
    case 'invitation.declined':
      return `declined the invitation as ${str(d.role)}`;
    case 'app.added':
      return `added the app ${who}`;
    case 'app.countries_changed':
      return `changed the countries of ${who}`;
    case 'app.removed':
      return `removed the app ${who}`;
    case 'app.claimed':
      return `took over ${who}, connected before signing in by ${str(d.email)}`;
    case 'app.credentials_set':
      return `stored ${d.kind === 'google_play' ? 'Google Play' : 'App Store Connect'} credentials (${str(d.label)}) for ${who}`;
    case 'app.credentials_removed':
      return `removed the store credentials of ${who}`;
    case 'destination.added':
      return `added the destination ${who}`;
    case 'destination.updated':
      return `changed the settings of ${who}`;
    case 'destination.paused':
      return `paused ${who}`;
    case 'destination.resumed':
      return `resumed ${who}`;
    case 'destination.deleted':
      return `deleted the destination ${who}`;
    case 'api_key.created':
      return `created the API key “${who}”`;
    case 'api_key.revoked':
      return `revoked the API key “${who}”`;
    default:
      return `${e.action.replace(/[._]/g, ' ')}${e.target ? ` ${e.target}` : ''}`;
  }
}
