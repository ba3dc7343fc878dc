import { describe, expect, test } from 'vitest';
import { mailboxDomain, mailboxKey } from '@/server/connect/mailbox';

describe('mailboxKey: one key per mailbox, whatever the spelling', () => {
  test.each([
    ['Victim@Example.com', 'victim@example.com'],
    ['victim+1@example.com', 'victim@example.com'],
    ['victim+reviews+2@example.com', 'victim@example.com'],
    ['v.ictim@example.com', 'v.ictim@example.com'], // dots matter outside Gmail
    ['v.ictim@gmail.com', 'victim@gmail.com'],
    ['V.I.C.T.I.M+x@GMail.com', 'victim@gmail.com'],
    ['victim@googlemail.com', 'victim@gmail.com'],
    ['vic.tim+a@googlemail.com', 'victim@gmail.com'],
    ['  victim@example.com  ', 'victim@example.com'],
    ['victim@example.com.', 'victim@example.com'],
    ['+tag@example.com', '+tag@example.com'], // nothing before the plus: the local part is the whole thing
    ['not-an-address', 'not-an-address'],
  ])('%s → %s', (address, key) => {
    expect(mailboxKey(address)).toBe(key);
  });

  test('the +tag and Gmail-dot variants of one address share a key', () => {
    const keys = new Set(['victim@gmail.com', 'victim+1@gmail.com', 'victim+2@gmail.com', 'v.ictim@gmail.com', 'Vic.Tim@googlemail.com'].map(mailboxKey));
    expect([...keys]).toEqual(['victim@gmail.com']);
  });

  test('mailboxDomain counts googlemail.com as gmail.com', () => {
    expect(mailboxDomain('a@googlemail.com')).toBe('gmail.com');
    expect(mailboxDomain('A+b@Example.ORG')).toBe('example.org');
  });
});
