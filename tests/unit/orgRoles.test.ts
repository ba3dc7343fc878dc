import { describe, expect, test } from 'vitest';
import { assignableRoles, atLeast, canManageMember, canManageTeam } from '@/shared/orgRoles';

describe('who may manage whom', () => {
  test('rank: owner > admin > member', () => {
    expect(atLeast('owner', 'admin')).toBe(true);
    expect(atLeast('admin', 'admin')).toBe(true);
    expect(atLeast('member', 'admin')).toBe(false);
    expect(canManageTeam('member')).toBe(false);
    expect(canManageTeam('admin')).toBe(true);
  });

  test.each([
    ['member', 'member', undefined, false],
    ['admin', 'member', undefined, true],
    ['admin', 'admin', 'member', true],
    ['admin', 'member', 'admin', true],
    ['admin', 'member', 'owner', false],
    ['admin', 'owner', undefined, false],
    ['admin', 'owner', 'member', false],
    ['owner', 'owner', 'admin', true],
    ['owner', 'member', 'owner', true],
  ] as const)('%s acting on a %s (new role %s): %s', (actor, target, newRole, allowed) => {
    expect(canManageMember(actor, target, newRole)).toBe(allowed);
  });

  test('the roles a picker offers: none for a member or above oneself, owners only from owners', () => {
    expect(assignableRoles('member', 'member')).toEqual([]);
    expect(assignableRoles('admin', 'owner')).toEqual([]);
    expect(assignableRoles('admin', 'member')).toEqual(['admin', 'member']);
    expect(assignableRoles('owner', 'admin')).toEqual(['owner', 'admin', 'member']);
  });
});
