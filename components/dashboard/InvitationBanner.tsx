/**
 * The open invitations to the signed-in address, above every dashboard page: who invites them where and as what, and
 * what accepting does to the organisation they are in now (the server's words, the rule it enforces). Nothing joins
 * until they press Accept; an organisation that would be deleted with what it holds says so on the button.
 */
import toast from '@/lib/hotToast';
import type { MyInvitation } from '@/lib/api/invitations';
import { useAcceptInvitation, useDeclineInvitation, useMyInvitations } from '@/lib/queries/invitations';
import styles from './Dashboard.module.css';

function Invitation({ invitation }: { invitation: MyInvitation }) {
  const accept = useAcceptInvitation((s) => toast.success(`You joined ${s.organisation}`));
  const decline = useDeclineInvitation();
  const busy = accept.isPending || decline.isPending;
  const outcome = invitation.outcome;
  const deletes = outcome?.kind === 'deletes_holdings';
  const error = accept.error?.message ?? decline.error?.message ?? '';
  return (
    <li>
      <p>
        {invitation.inviter ?? 'Someone'} invites you to <strong>{invitation.organisation}</strong> as {invitation.role}.
      </p>
      {outcome ? <p>{outcome.text}</p> : null}
      <div className={styles.row}>
        {outcome?.kind === 'blocked' ? null : (
          <button
            type="button"
            className={deletes ? styles.danger : styles.button}
            disabled={busy}
            aria-busy={accept.isPending}
            onClick={() => accept.mutate({ id: invitation.id, deleteCurrent: deletes })}
          >
            {deletes ? `Delete my organisation and join ${invitation.organisation}` : `Accept and join ${invitation.organisation}`}
          </button>
        )}
        <button type="button" className={styles.quiet} disabled={busy} aria-busy={decline.isPending} onClick={() => decline.mutate(invitation.id)}>
          Decline
        </button>
      </div>
      {error ? <p role="alert">{error}</p> : null}
    </li>
  );
}

export default function InvitationBanner({ enabled }: { enabled: boolean }) {
  const invitations = useMyInvitations(enabled);
  if (!invitations.data?.length) return null;
  return (
    <section className={styles.section} aria-labelledby="open-invitations">
      <h2 id="open-invitations" className={styles.sectionTitle}>
        {invitations.data.length === 1 ? 'An invitation for you' : 'Invitations for you'}
      </h2>
      <ul className={styles.invitations}>
        {invitations.data.map((i) => (
          <Invitation key={i.id} invitation={i} />
        ))}
      </ul>
    </section>
  );
}
