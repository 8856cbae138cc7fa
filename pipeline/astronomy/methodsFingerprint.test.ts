// The methods' fingerprint sets aside a store computed under other rules (server/timetables/storeFollower.ts): it
// must change with a method's row and with the calculation's own rules (rulesVersion.ts), and with nothing else.
import { describe, expect, it } from 'vitest';
import { METHODS, METHODS_FINGERPRINT, methodsFingerprint } from './methods.js';
import { CALCULATION_RULES_VERSION } from './rulesVersion.js';

describe('the methods’ fingerprint', () => {
  it('changes with the calculation rules’ version: a store from before issue 33’s polar rules is set aside', () => {
    expect(methodsFingerprint(METHODS, CALCULATION_RULES_VERSION)).not.toBe(methodsFingerprint(METHODS, CALCULATION_RULES_VERSION - 1));
    expect(CALCULATION_RULES_VERSION).toBeGreaterThanOrEqual(2);
  });

  it('changes with an angle of one method, and is stable otherwise', () => {
    const changed = METHODS.map((m) => (m.id === 'oman' ? { ...m, fajrAngle: m.fajrAngle + 0.5 } : m));
    expect(methodsFingerprint(changed, CALCULATION_RULES_VERSION)).not.toBe(methodsFingerprint(METHODS, CALCULATION_RULES_VERSION));
    expect(methodsFingerprint(METHODS, CALCULATION_RULES_VERSION)).toBe(methodsFingerprint([...METHODS], CALCULATION_RULES_VERSION));
    expect(METHODS_FINGERPRINT).toMatch(/^[0-9a-f]{16}$/);
  });
});
