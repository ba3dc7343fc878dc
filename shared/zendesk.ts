/**
 * Zendesk words both sides use: the trigger ARB's setup page asks for, and the body its webhook sends
 * (server/zendesk/webhook.ts reads `ticket_id`; the ticket and its comments are then read from Zendesk itself).
 */
export const ZENDESK_TRIGGER_NAME = 'ARB: reply to the review';

/** The JSON body of the trigger's "Notify active webhook" action (Zendesk fills the placeholders). */
export const ZENDESK_TRIGGER_BODY = '{\n  "ticket_id": "{{ticket.id}}",\n  "status": "{{ticket.status}}"\n}';

/** The tag every ticket ARB creates carries: the trigger's condition. */
export const ZENDESK_TAG = 'arb';
