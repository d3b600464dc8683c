import { stepRegistration } from '@locus/machines/authentication';
import { describe, expect, it } from 'vitest';
import { registrationPage } from './registration-page';

describe('the page sign-up goes to next', () => {
  it('is picked by the registration machine: the unit for the coast guard, else the dashboard', () => {
    const guard = stepRegistration(null, { type: 'IDENTITY_SUBMITTED', coastGuard: true });
    expect(guard.state).toBe('coastGuardUnit');
    expect(registrationPage.coastGuardUnit).toBe('/register/complete-uscg');

    const agency = stepRegistration(null, { type: 'IDENTITY_SUBMITTED', coastGuard: false });
    expect(agency.state).toBe('agencyProfile');
    const chosen = stepRegistration(
      { coastGuard: false, registrationCompleted: false, uscgApproval: null },
      { type: 'AGENCY_CHOSEN' },
    );
    expect(chosen.state).toBe('complete');
    expect(registrationPage.complete).toBe('/dashboard');
  });
});
