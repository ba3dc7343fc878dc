/**
 * Which mailbox an address reaches, for counting: limits must count people, not spellings. Mail providers deliver
 * `ana+anything@` to `ana@` (sub-addressing, RFC 5233), and Gmail ignores dots in the local part and treats
 * googlemail.com as gmail.com, so `a.n.a+1@googlemail.com` and `ana@gmail.com` are one mailbox and count as one.
 * Only for limits: mail still goes to the address as written.
 */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/** The mailbox an address lands in: lower-cased, `+tag` removed, and for Gmail dots dropped and the domain unified. */
export function mailboxKey(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replace(/\./g, '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** The recipient's domain, as mailboxKey counts it (googlemail.com is gmail.com). */
export function mailboxDomain(address: string): string {
  const key = mailboxKey(address);
  return key.slice(key.lastIndexOf('@') + 1);
}
