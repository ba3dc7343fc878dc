/**
 * Why an AI action (Translate, Draft a reply) cannot work on this server, in plain words, and the way to turn it on
 * for the reader: an admin or owner gets the setup guide (AI_SETUP_GUIDE, the help page's "AI features"), a member
 * the person to ask. The role comes from the organisation answer (GET v1/org) the dashboard already reads.
 */
import Link from 'next/link';
import { useOrganisation } from '@/lib/queries/team';
import { AI_ENABLE_FOR_MEMBERS, AI_SETUP_GUIDE } from '@/shared/ai';
import { atLeast } from '@/shared/orgRoles';

export default function AiSetupNote({ id, className, message }: { id?: string; className?: string; message: string }) {
  const org = useOrganisation();
  const role = org.data?.role;
  const admin = !!role && atLeast(role, 'admin');
  return (
    <p id={id} className={className} role="note">
      {message}
      {admin ? (
        <>
          {' '}
          <Link href={AI_SETUP_GUIDE}>How to turn them on (setup guide)</Link>
        </>
      ) : role ? (
        ` ${AI_ENABLE_FOR_MEMBERS}`
      ) : null}
    </p>
  );
}
