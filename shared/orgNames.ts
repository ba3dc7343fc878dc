/**
 * What an organisation may be called. Its name is shown to people outside it — in the body of the invitation e-mails
 * ARB sends to addresses an admin typed — so it must read as a name, not as a link or a message: letters (any
 * script), digits, spaces and a little punctuation, at most ORG_NAME_MAX_CHARS, and nothing that looks like a web
 * address (mail clients turn `paypal-help.com` into a link). Pure: the rename endpoint, the invitation e-mail and the
 * Team page's field share it.
 */
export const ORG_NAME_MAX_CHARS = 60;

/** Letters and marks of any script, digits, spaces and `& ' ’ . , ( ) - – _ + ! ? #`. No `@ / : < >`, no control or format characters. */
const ALLOWED = /^[\p{L}\p{M}\p{N} &'’.,()\-–_+!?#]+$/u;
/** `www.`, or a dot between a word and at least two letters (`acme.io`, `pay.pal.com`): a domain name. */
const WEB_ADDRESS = /(?:^|[^\p{L}\p{N}])www\.|[\p{L}\p{N}-]\.\p{L}{2,}(?![\p{L}\p{N}])/iu;

/** Why `name` (already trimmed) cannot be an organisation's name, in words for the person typing it; null when it can. */
export function orgNameProblem(name: string): string | null {
  if (name.length === 0) return 'Enter a name for the organisation.';
  if ([...name].length > ORG_NAME_MAX_CHARS) return `The name can be at most ${ORG_NAME_MAX_CHARS} characters.`;
  if (!ALLOWED.test(name)) return 'The name can use letters, digits, spaces and these marks only: & \' . , ( ) - _ + ! ? #';
  if (WEB_ADDRESS.test(name)) return 'The name cannot look like a web address, since it is shown in invitation e-mails: write “Acme”, not “acme.com”.';
  return null;
}

/** Whether an existing name may be shown to outsiders (names made before this rule, or an owner's address, may not). */
export const isPresentableOrgName = (name: string): boolean => orgNameProblem(name.trim()) === null;

/** Mail services whose domain says nothing about the organisation: the name comes from the address's local part. */
const FREE_MAIL = /^(gmail|googlemail|outlook|hotmail|live|msn|yahoo|ymail|icloud|me|mac|aol|proton|protonmail|pm|gmx|web|mail|yandex|qq|163|126|zoho|fastmail|hey|tutanota|tuta|seznam|orange|free|t-online|libero|laposte|naver|daum)$/;
/** Second-level labels of country domains (`acme.co.uk`, `acme.com.au`): the organisation's label is the one before. */
const SECOND_LEVEL = /^(co|com|org|net|ac|gov|edu|ne|or|gv|ltd|plc)$/;

const words = (s: string) =>
  s
    .split(/[._\-\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/**
 * The name a new organisation gets from its first member's address (sign-in, leaving a team, a deleted organisation):
 * the address's domain as a name — `ana@acme.com` → "Acme", `ana@mail.acme-labs.co.uk` → "Acme Labs" (a name, since a
 * name that looks like `acme.com` is refused by orgNameProblem and hidden from invitation e-mails) — or, for a free
 * mail service (gmail.com…), its owner's — `ana.lopez@gmail.com` → "Ana Lopez’s team". Always a valid name.
 */
export function defaultOrgName(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).split('+')[0];
  const labels = email.slice(at + 1).toLowerCase().split('.').filter(Boolean);
  if (labels.length > 1) labels.pop();
  if (labels.length > 1 && SECOND_LEVEL.test(labels[labels.length - 1])) labels.pop();
  const domain = labels[labels.length - 1] ?? '';
  const candidates = FREE_MAIL.test(domain) ? [`${words(local)}’s team`] : [words(domain), `${words(local)}’s team`];
  for (const name of candidates) if (orgNameProblem(name) === null) return name;
  return 'My team';
}
