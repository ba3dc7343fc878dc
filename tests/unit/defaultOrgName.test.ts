// A new organisation's name comes from its first member's e-mail domain (issue 31), never the address itself; for a
// free mail service, from the person's own part of the address. Always a name the rename rule accepts.
import { describe, expect, test } from 'vitest';
import { defaultOrgName, orgNameProblem } from '@/shared/orgNames';

describe('defaultOrgName', () => {
  test.each([
    ['ana@acme.com', 'Acme'],
    ['ana@mail.acme.com', 'Acme'],
    ['ana@acme-labs.co.uk', 'Acme Labs'],
    ['ana@shop.zebra.com.au', 'Zebra'],
    ['ANA@Example.ORG', 'Example'],
    ['ana.lopez@gmail.com', 'Ana Lopez’s team'],
    ['ana.lopez+arb@gmail.com', 'Ana Lopez’s team'],
    ['rin_k@outlook.de', 'Rin K’s team'],
    ['bob@yahoo.co.uk', 'Bob’s team'],
  ])('%s → %s', (email, name) => {
    expect(defaultOrgName(email)).toBe(name);
  });

  test('never the address, always a valid name (odd characters fall back)', () => {
    for (const email of ['ana@acme.com', 'x@localhost', '"quoted name"@gmail.com', 'a/b@gmail.com', `${'a'.repeat(70)}@gmail.com`, 'ana@xn--bcher-kva.de']) {
      const name = defaultOrgName(email);
      expect(name).not.toContain('@');
      expect(orgNameProblem(name), `${email} → ${name}`).toBeNull();
    }
    expect(defaultOrgName('a/b@gmail.com')).toBe('My team');
  });
});
