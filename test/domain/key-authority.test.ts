import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CAPABILITIES } from '../../src/domain/capabilities.ts';
import { beyondRole, effectiveCapabilities, PERSONAL_KEY_CAPABILITIES } from '../../src/domain/members/key-authority.ts';
import { MEMBER_ROLES } from '../../src/domain/members/roles.ts';

const NOT_OWNER_ONLY = ['availability.read', 'booking.create', 'booking.read', 'booking.cancel', 'services.read', 'staff.read'];

describe('what a personal key may act with, by its holder’s role', () => {
  test('the owner: every capability; a manager or front desk: all but webhook.manage and subscription.read', () => {
    assert.deepEqual(PERSONAL_KEY_CAPABILITIES.owner, CAPABILITIES);
    assert.deepEqual(PERSONAL_KEY_CAPABILITIES.manager, NOT_OWNER_ONLY);
    assert.deepEqual(PERSONAL_KEY_CAPABILITIES.frontDesk, NOT_OWNER_ONLY);
    assert.deepEqual(Object.keys(PERSONAL_KEY_CAPABILITIES).sort(), [...MEMBER_ROLES].sort());
  });

  test('effective: stored ∩ role for a personal key, in the stored order; nothing without a membership; an integration key as stored', () => {
    const stored = ['subscription.read', 'booking.read', 'webhook.manage', 'services.read'] as const;
    assert.deepEqual(effectiveCapabilities({ type: 'personal', capabilities: stored, holderRole: 'owner' }), stored);
    for (const holderRole of ['manager', 'frontDesk'] as const) {
      assert.deepEqual(effectiveCapabilities({ type: 'personal', capabilities: stored, holderRole }), ['booking.read', 'services.read']);
    }
    assert.deepEqual(effectiveCapabilities({ type: 'personal', capabilities: stored, holderRole: null }), []);
    assert.deepEqual(effectiveCapabilities({ type: 'integration', capabilities: stored, holderRole: null }), stored);
  });

  test('beyondRole names what a role does not allow, in the order asked', () => {
    assert.deepEqual(beyondRole(['webhook.manage', 'booking.read', 'subscription.read'], 'manager'), [
      'webhook.manage',
      'subscription.read',
    ]);
    assert.deepEqual(beyondRole(CAPABILITIES, 'owner'), []);
    assert.deepEqual(beyondRole(NOT_OWNER_ONLY as any, 'frontDesk'), []);
  });
});
