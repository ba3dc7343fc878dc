import { describe, expect, test } from 'vitest';
import { describeAuditEntry } from '@/lib/auditText';

describe('audit entries in plain words', () => {
  test.each([
    [{ action: 'org.renamed', target: null, details: { from: 'a@x.com', to: 'Acme' } }, 'renamed the organisation from “a@x.com” to “Acme”'],
    [{ action: 'member.invited', target: 'bob@x.com', details: { role: 'admin' } }, 'invited bob@x.com as admin'],
    [{ action: 'invitation.revoked', target: 'bob@x.com', details: {} }, 'cancelled the invitation of bob@x.com'],
    [{ action: 'invitation.revoked', target: 'bob@x.com', details: { reason: 'inviter_left', inviter: 'eve@x.com' } }, 'cancelled the invitation of bob@x.com, sent by eve@x.com, who left'],
    [{ action: 'invitation.role_changed', target: 'bob@x.com', details: { from: 'member', to: 'admin' } }, 'changed the invitation of bob@x.com from member to admin'],
    [{ action: 'member.joined', target: 'bob@x.com', details: { role: 'member' } }, 'joined as member'],
    [{ action: 'member.role_changed', target: 'bob@x.com', details: { from: 'member', to: 'admin' } }, 'changed the role of bob@x.com from member to admin'],
    [{ action: 'member.removed', target: 'bob@x.com', details: { role: 'member' } }, 'removed bob@x.com'],
    [{ action: 'member.left', target: 'bob@x.com', details: {} }, 'left the organisation'],
    [{ action: 'member.left', target: 'bob@x.com', details: { reason: 'joined_another' } }, 'left the organisation to join another'],
    [{ action: 'member.left', target: 'bob@x.com', details: { reason: 'organisation_deleted', organisation: 'Acme' } }, 'came here when “Acme” was deleted by its owner'],
    [{ action: 'invitation.declined', target: 'bob@x.com', details: { role: 'admin' } }, 'declined the invitation as admin'],
    [{ action: 'app.credentials_set', target: 'Lantern', details: { kind: 'app_store_connect', label: '2X9R4HXF34' } }, 'stored App Store Connect credentials (2X9R4HXF34) for Lantern'],
    [{ action: 'app.credentials_set', target: 'Garden', details: { kind: 'google_play', label: 'bot@x.iam.gserviceaccount.com' } }, 'stored Google Play credentials (bot@x.iam.gserviceaccount.com) for Garden'],
    [{ action: 'app.credentials_removed', target: 'Lantern', details: {} }, 'removed the store credentials of Lantern'],
    [{ action: 'destination.added', target: 'Slack #reviews', details: {} }, 'added the destination Slack #reviews'],
    [{ action: 'destination.updated', target: 'Slack #reviews', details: {} }, 'changed the settings of Slack #reviews'],
    [{ action: 'destination.paused', target: 'Slack #reviews', details: {} }, 'paused Slack #reviews'],
    [{ action: 'destination.resumed', target: 'Slack #reviews', details: {} }, 'resumed Slack #reviews'],
    [{ action: 'destination.deleted', target: 'Slack #reviews', details: {} }, 'deleted the destination Slack #reviews'],
    [{ action: 'api_key.created', target: 'CI', details: {} }, 'created the API key “CI”'],
    [{ action: 'api_key.revoked', target: 'CI', details: {} }, 'revoked the API key “CI”'],
    [{ action: 'something.else_happened', target: 'x', details: {} }, 'something else happened x'],
  ])('%j', (entry, words) => {
    expect(describeAuditEntry(entry)).toBe(words);
  });
});
