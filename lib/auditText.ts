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
      return `cancelled the invitation of ${who}`;
    case 'member.joined':
      return `joined as ${str(d.role)}`;
    case 'member.role_changed':
      return `changed the role of ${who} from ${str(d.from)} to ${str(d.to)}`;
    case 'member.removed':
      return `removed ${who}`;
    case 'member.left':
      return 'left the organisation';
    case 'app.added':
      return `added the app ${who}`;
    case 'app.countries_changed':
      return `changed the countries of ${who}`;
    case 'app.removed':
      return `removed the app ${who}`;
    case 'app.claimed':
      return `took over ${who}, connected before signing in by ${str(d.email)}`;
    default:
      return `${e.action.replace(/[._]/g, ' ')}${e.target ? ` ${e.target}` : ''}`;
  }
}
