import { describe, expect, test } from 'vitest';
import { describeAuditEntry } from '@/lib/auditText';

describe('audit entries in plain words', () => {
  test.each([
    [{ action: 'org.renamed', target: null, details: { from: 'a@x.com', to: 'Acme' } }, 'renamed the organisation from “a@x.com” to “Acme”'],
    [{ action: 'member.invited', target: 'bob@x.com', details: { role: 'admin' } }, 'invited bob@x.com as admin'],
    [{ action: 'invitation.revoked', target: 'bob@x.com', details: {} }, 'cancelled the invitation of bob@x.com'],
    [{ action: 'member.joined', target: 'bob@x.com', details: { role: 'member' } }, 'joined as member'],
    [{ action: 'member.role_changed', target: 'bob@x.com', details: { from: 'member', to: 'admin' } }, 'changed the role of bob@x.com from member to admin'],
    [{ action: 'member.removed', target: 'bob@x.com', details: { role: 'member' } }, 'removed bob@x.com'],
    [{ action: 'member.left', target: 'bob@x.com', details: {} }, 'left the organisation'],
    [{ action: 'destination.paused', target: 'dst_1', details: {} }, 'destination paused dst_1'],
  ])('%j', (entry, words) => {
    expect(describeAuditEntry(entry)).toBe(words);
  });
});
