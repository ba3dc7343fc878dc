/**
 * A review's Zendesk ticket: the link when it exists, else "Create ticket" (POST /api/v1/org/reviews/{id}/ticket; one
 * ticket per review, so asking twice answers the same one). Each answer is said in words: 201 created, 200 already
 * there, 202 queued (Zendesk was busy, ARB tries again), 409 Zendesk not connected, 422 Zendesk's refusal.
 */
import { useState } from 'react';
import { ApiError } from '@/lib/api/client';
import { useCreateTicket, useZendesk } from '@/lib/queries/zendesk';
import styles from '../Dashboard.module.css';

export type TicketLinkProps = {
  reviewId: string;
  /** The ticket's URL in Zendesk when the review already has one. */
  ticketUrl?: string | null;
  ticketId?: number | null;
  /** The ticket's status in Zendesk as last seen (open, solved…). */
  ticketStatus?: string | null;
};

const statusWords: Record<number, string> = {
  201: 'Ticket created in Zendesk.',
  200: 'This review already has a ticket.',
  202: 'Zendesk is busy: the ticket will be created shortly.',
};

/** What the last click came to. Always rendered, so screen readers hear the words when they appear (a live region). */
const Said = ({ message }: { message: string | null }) => (
  <span role="status" className={styles.muted}>
    {message ? ` ${message}` : ''}
  </span>
);

export default function TicketLink({ reviewId, ticketUrl, ticketId, ticketStatus }: TicketLinkProps) {
  const create = useCreateTicket();
  const [message, setMessage] = useState<string | null>(null);
  const [link, setLink] = useState<{ url: string; id: number | null } | null>(ticketUrl ? { url: ticketUrl, id: ticketId ?? null } : null);
  if (link) {
    return (
      <span>
        <a href={link.url} target="_blank" rel="noreferrer">
          {link.id ? `Zendesk ticket #${link.id}` : 'Zendesk ticket'}
          {ticketStatus && link.url === ticketUrl ? ` (${ticketStatus})` : ''}
        </a>
        <Said message={message} />
      </span>
    );
  }
  const onClick = () => {
    setMessage(null);
    create.mutate(reviewId, {
      onSuccess: ({ ticket, status }) => {
        setMessage(statusWords[status] ?? 'Ticket requested.');
        if (ticket.url) setLink({ url: ticket.url, id: ticket.ticket_id });
      },
      onError: (e) => {
        const status = e instanceof ApiError ? e.status : 0;
        if (status === 409) setMessage('Zendesk is not connected: an admin connects it on the Integrations page.');
        else if (status === 422) setMessage(`Zendesk refused the ticket: ${e.message}`);
        else setMessage(e.message || 'The ticket could not be created. Try again.');
      },
    });
  };
  return (
    <span>
      <button type="button" className={styles.button} onClick={onClick} disabled={create.isPending}>
        {create.isPending ? 'Creating ticket…' : 'Create ticket'}
      </button>
      <Said message={message} />
    </span>
  );
}

/** A review's ticket in the inbox: its link, or "Create ticket" while the organisation has Zendesk connected. */
export function ReviewTicket({ reviewId, ticket }: { reviewId: string; ticket?: { ticket_id: number; url: string; status: string | null } | null }) {
  const zendesk = useZendesk();
  if (!ticket && !zendesk.data?.connected) return null;
  return <TicketLink reviewId={reviewId} ticketUrl={ticket?.url} ticketId={ticket?.ticket_id} ticketStatus={ticket?.status} />;
}
