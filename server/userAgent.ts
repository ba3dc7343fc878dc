/**
 * How ARB names itself to the servers it calls on its own (store review pages, chat webhooks): one name, so a store or
 * a chat platform sees one client, and an operator reading their logs can tell where the requests come from.
 */
export const USER_AGENT = 'ARB review monitor (+https://arb.local)';
