/**
 * /dashboard/team: the organisation's name, its members and their roles, invitations (with who sent each), the API keys
 * of people who have left (to revoke with one click), leaving, the audit log, and (for the owner) deleting the
 * organisation.
 * What a control does is decided by the server (roles are checked there on every call); the page only hides what the
 * caller's role cannot do, and shows the server's message as a toast when something is refused.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/router';
import { useState, type FormEvent } from 'react';
import EmailField from '@/components/common/EmailField';
import toast from '@/lib/hotToast';
import type { Departure, OrgMember, OrgRole } from '@/lib/api/org';
import { describeAuditEntry } from '@/lib/auditText';
import { useApiKeys, useRevokeApiKey } from '@/lib/queries/apiKeys';
import { ORG_NAME_MAX_CHARS } from '@/shared/orgNames';
import { assignableRoles, canManageTeam, roleLabel } from '@/shared/orgRoles';
import {
  orgKeys,
  useAuditLog,
  useCancelInvitation,
  useChangeRole,
  useDeleteOrganisation,
  useInvitations,
  useInviteMember,
  useLeaveOrganisation,
  useMembers,
  useOrganisation,
  useRemoveMember,
  useRenameOrganisation,
} from '@/lib/queries/team';
import { useAuthStore } from '@/stores/auth';
import { ConfirmButton, date, dateTime, errorToast, Skeleton } from './common';
import YourSessions from './YourSessions';
import styles from './Dashboard.module.css';

function OrganisationName({ name, canRename }: { name: string; canRename: boolean }) {
  const [value, setValue] = useState(name);
  const rename = useRenameOrganisation({ onSuccess: () => toast.success('Organisation renamed'), onError: errorToast });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(value);
  };
  if (!canRename) return <p className={styles.muted}>{name}</p>;
  return (
    <form className={styles.row} onSubmit={submit}>
      <div className={styles.field}>
        <label htmlFor="org-name">Organisation name</label>
        <input id="org-name" className={styles.input} value={value} maxLength={ORG_NAME_MAX_CHARS} required onChange={(e) => setValue(e.target.value)} />
      </div>
      <button type="submit" className={styles.button} disabled={rename.isPending || value.trim() === name}>
        Save name
      </button>
    </form>
  );
}

/** What the removal toast says: who went, and what they left that still works (listed under "API keys of former members"). */
export function removedText(email: string, d: Departure): string {
  const parts = [`${email} was removed.`];
  const invitations = d.revoked_invitations.length;
  if (invitations) parts.push(`${invitations === 1 ? 'The invitation' : `${invitations} invitations`} they sent ${invitations === 1 ? 'was' : 'were'} cancelled.`);
  const keys = d.api_keys.length;
  if (keys) parts.push(`${keys === 1 ? 'An API key' : `${keys} API keys`} they created still ${keys === 1 ? 'works' : 'work'}: revoke ${keys === 1 ? 'it' : 'them'} under “API keys of former members” if nobody needs ${keys === 1 ? 'it' : 'them'}.`);
  return parts.join(' ');
}

function MemberRow({ member, me }: { member: OrgMember; me: OrgRole }) {
  const changeRole = useChangeRole({ onSuccess: (m) => toast.success(`${m.email} is now ${roleLabel(m.role).toLowerCase()}`), onError: errorToast });
  const remove = useRemoveMember({ onSuccess: (d) => toast.success(removedText(member.email, d)), onError: errorToast });
  const roles = member.you ? [] : assignableRoles(me, member.role);
  const who = member.name ? `${member.name} (${member.email})` : member.email;
  return (
    <tr>
      <td>
        {who}
        {member.you ? <span className={styles.you}>(you)</span> : null}
      </td>
      <td>
        {roles.length > 1 ? (
          <select
            className={styles.select}
            aria-label={`Role of ${member.email}`}
            value={member.role}
            disabled={changeRole.isPending}
            onChange={(e) => changeRole.mutate({ id: member.id, role: e.target.value as OrgRole })}
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {roleLabel(r)}
              </option>
            ))}
          </select>
        ) : (
          roleLabel(member.role)
        )}
      </td>
      <td>{date(member.joined_at)}</td>
      <td>{date(member.last_sign_in_at)}</td>
      <td>
        {roles.length > 0 ? (
          <ConfirmButton label={`Remove ${member.email}`} pending={remove.isPending} question={`Remove ${member.email} from the organisation? They keep their account but lose access to its apps and reviews.`} onConfirm={() => remove.mutate(member.id)}>
            Remove
          </ConfirmButton>
        ) : null}
      </td>
    </tr>
  );
}

function Members({ me }: { me: OrgRole }) {
  const members = useMembers();
  if (members.isPending) return <Skeleton label="Loading members" />;
  if (members.isError) return <p role="alert">{members.error.message}</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="visually-hidden">Members of the organisation</caption>
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.data.map((m) => (
            <MemberRow key={m.id} member={m} me={me} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InviteForm() {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const invite = useInviteMember({
    onSuccess: (inv) => {
      // Within the re-invite cooldown no second e-mail goes: the server says when one may.
      if (inv.mail.sent) toast.success(`Invitation sent to ${inv.email}`);
      else toast(inv.mail.message);
      setEmail('');
    },
    onError: (e) => {
      errorToast(e);
      // An address that unsubscribed is refused an e-mail, but its invitation is open: show it in the list.
      void client.invalidateQueries({ queryKey: orgKeys.invitations });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ email: email.trim(), role });
  };
  return (
    <form className={styles.row} onSubmit={submit}>
      <div className={styles.field}>
        <EmailField id="invite-email" label="E-mail address" inputClassName={styles.input} required autoComplete="off" value={email} onChange={setEmail} />
      </div>
      <div className={styles.field}>
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" className={styles.select} value={role} onChange={(e) => setRole(e.target.value as 'admin' | 'member')}>
          <option value="member">Member: reads and replies</option>
          <option value="admin">Admin: also manages apps, destinations and the team</option>
        </select>
      </div>
      <button type="submit" className={styles.button} disabled={invite.isPending} aria-busy={invite.isPending}>
        Invite member
      </button>
    </form>
  );
}

function Invitations() {
  const invitations = useInvitations(true);
  const cancel = useCancelInvitation({ onSuccess: () => toast.success('Invitation cancelled'), onError: errorToast });
  if (invitations.isPending) return <Skeleton rows={1} label="Loading invitations" />;
  if (invitations.isError) return <p role="alert">{invitations.error.message}</p>;
  if (invitations.data.length === 0) return <p className={styles.muted}>No open invitations.</p>;
  return (
    <ul className={styles.list} aria-label="Open invitations">
      {invitations.data.map((i) => (
        <li key={i.id} className={styles.row}>
          <span>
            {i.email} · {roleLabel(i.role)} · until {date(i.expires_at)} · invited by {i.created_by ?? 'a former member'}
            {i.mailed_at ? null : <span className={styles.muted}> · not e-mailed: this address unsubscribed from ARB e-mails, so they see it once they sign in</span>}
          </span>
          <button
            type="button"
            className={styles.quiet}
            aria-label={`Cancel the invitation of ${i.email}`}
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(i.id)}
          >
            Cancel
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The keys of people who are no longer members (the list names no creator for them) that still work. A key belongs
 * to the organisation, so leaving does not revoke it; here an admin revokes each with one click.
 */
function FormerMembersKeys() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey({ onSuccess: () => toast.success('API key revoked'), onError: errorToast });
  const left = keys.data?.filter((k) => k.created_by === null) ?? [];
  if (left.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby="former-keys-heading">
      <h2 id="former-keys-heading" className={styles.sectionTitle}>
        API keys of former members
      </h2>
      <p className={styles.muted}>These keys were created by people who have left the organisation. They still work: revoke the ones nobody needs.</p>
      <ul className={styles.list} aria-label="API keys of former members">
        {left.map((k) => (
          <li key={k.id} className={styles.row}>
            <span>
              {k.name} · <code>{k.prefix}…</code> · created {date(k.created_at)} by a former member · last used {k.last_used_at ? date(k.last_used_at) : 'never'}
            </span>
            <button type="button" className={styles.danger} aria-label={`Revoke the API key ${k.name}`} disabled={revoke.isPending} onClick={() => revoke.mutate(k.id)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function AuditLog() {
  const log = useAuditLog(true);
  if (log.isPending) return <Skeleton label="Loading the audit log" />;
  if (log.isError) return <p role="alert">{log.error.message}</p>;
  const entries = log.data.pages.flatMap((p) => p.data);
  if (entries.length === 0) return <p className={styles.muted}>Nothing has changed yet.</p>;
  return (
    <>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className="visually-hidden">Audit log, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>
                  <time dateTime={e.created_at}>{dateTime(e.created_at)}</time>
                </td>
                <td>{e.actor_email ?? 'ARB'}</td>
                <td>{describeAuditEntry(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {log.hasNextPage ? (
        <button type="button" className={styles.quiet} disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
          Show older changes
        </button>
      ) : null}
    </>
  );
}

function Leave({ orgName }: { orgName: string }) {
  const router = useRouter();
  const leave = useLeaveOrganisation({
    onSuccess: () => {
      useAuthStore.getState().logout();
      toast.success(`You left ${orgName}. Sign in again to continue.`);
      void router.push('/login');
    },
    onError: errorToast,
  });
  return (
    <ConfirmButton pending={leave.isPending} question={`Leave ${orgName}? You keep your account, in an organisation of your own, and are signed out everywhere.`} onConfirm={() => leave.mutate(undefined)}>
      Leave organisation
    </ConfirmButton>
  );
}

/** The owner's last resort: typing the name makes sure the right organisation goes. */
function DeleteOrganisation({ orgName }: { orgName: string }) {
  const router = useRouter();
  const [typed, setTyped] = useState('');
  const remove = useDeleteOrganisation({
    onSuccess: () => {
      useAuthStore.getState().logout();
      toast.success(`${orgName} was deleted.`);
      void router.push('/');
    },
    onError: errorToast,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    remove.mutate(typed);
  };
  return (
    <section className={styles.section} aria-labelledby="delete-org-heading">
      <h2 id="delete-org-heading" className={styles.sectionTitle}>
        Delete organisation
      </h2>
      <p className={styles.muted}>
        This deletes {orgName} for good with your account: the destinations (nothing more is posted), the apps list, API keys and the audit log. The other members keep their accounts, each in an organisation of their own, and are signed out. A
        paid subscription must be cancelled under Billing first.
      </p>
      <form className={styles.row} onSubmit={submit}>
        <div className={styles.field}>
          <label htmlFor="delete-org-confirm">Type {orgName} to confirm</label>
          <input id="delete-org-confirm" className={styles.input} value={typed} maxLength={200} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
        </div>
        <button type="submit" className={styles.danger} disabled={remove.isPending || typed.trim() !== orgName}>
          Delete organisation
        </button>
      </form>
    </section>
  );
}

export default function TeamPage() {
  const org = useOrganisation();
  if (org.isPending) return <Skeleton rows={4} label="Loading your organisation" />;
  if (org.isError) return <p role="alert">{org.error.message}</p>;
  const me = org.data.role;
  const manages = canManageTeam(me);
  return (
    <>
      <section className={styles.section} aria-labelledby="org-heading">
        <h2 id="org-heading" className={styles.sectionTitle}>
          Organisation
        </h2>
        <OrganisationName key={org.data.id} name={org.data.name} canRename={manages} />
        <p className={styles.muted}>
          You are {roleLabel(me).toLowerCase()} · {org.data.members} {org.data.members === 1 ? 'member' : 'members'}
        </p>
      </section>
      <section className={styles.section} aria-labelledby="members-heading">
        <h2 id="members-heading" className={styles.sectionTitle}>
          Members
        </h2>
        <p className={styles.muted}>Members read reviews and reply. Admins also manage apps, destinations, API keys and the team. Owners also manage billing.</p>
        <Members me={me} />
        {manages ? (
          <>
            <h3 className={styles.sectionTitle}>Invite someone</h3>
            <p className={styles.muted}>They get an e-mail with a link to the invitation, and join once they accept it (signing in with that address shows it too).</p>
            <InviteForm />
            <h3 className={styles.sectionTitle}>Open invitations</h3>
            <Invitations />
          </>
        ) : null}
        {org.data.members > 1 ? <Leave orgName={org.data.name} /> : null}
      </section>
      {manages ? <FormerMembersKeys /> : null}
      {manages ? (
        <section className={styles.section} aria-labelledby="audit-heading">
          <h2 id="audit-heading" className={styles.sectionTitle}>
            Audit log
          </h2>
          <AuditLog />
        </section>
      ) : null}
      <YourSessions />
      {me === 'owner' ? <DeleteOrganisation key={org.data.name} orgName={org.data.name} /> : null}
    </>
  );
}
