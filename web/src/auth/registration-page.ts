import type { RegistrationState } from '@locus/machines/authentication';

/**
 * The page each registration state sign-up can reach is finished on (the registration machine's
 * names, which the API's complete-registration-uscg decides by too).
 */
export const registrationPage = {
  coastGuardUnit: '/register/complete-uscg',
  complete: '/dashboard',
} as const satisfies Partial<Record<RegistrationState, string>>;
