import {
  isCoastGuardEmail,
  Psap,
  RegisterBody,
  type CurrentUser,
  type PublicConfig,
} from '@locus/contract';
import { stepRegistration, type RegistrationState } from '@locus/machines/authentication';
import { z } from 'zod';
import { api, expect } from '../app/api';
import { reloadCurrentUser, startSession } from '../app/auth';
import { sessionStore } from '../app/session';

/** The Create Account form: the sign-up payload plus the profile the flow completes right after. */
export function signUpSchema(
  coastGuard: PublicConfig['coastGuard'] | undefined,
  captchaRequired: boolean,
) {
  return RegisterBody.pick({ firstName: true, lastName: true, email: true, password: true })
    .extend({
      phoneNumber: z.string().trim().max(32, 'At most 32 characters'),
      agency: z.union([Psap, z.literal(false)]).nullable(),
      companyName: z.string().trim().max(200, 'At most 200 characters'),
      agreedToTermsOfService: z.boolean(),
      captchaToken: z.string().nullable(),
    })
    .superRefine((values, context) => {
      // SPEC.md §5: the agency (or, when unlisted, its name) is required unless coast guard.
      if (!isCoastGuard(values.email, coastGuard)) {
        if (values.agency === null) {
          context.addIssue({ code: 'custom', path: ['agency'], message: 'Select your agency' });
        } else if (values.agency === false && values.companyName === '') {
          context.addIssue({ code: 'custom', path: ['companyName'], message: 'Required' });
        }
      }
      if (!values.agreedToTermsOfService) {
        context.addIssue({
          code: 'custom',
          path: ['agreedToTermsOfService'],
          message: 'You must accept the Terms of Use and Service',
        });
      }
      if (captchaRequired && values.captchaToken === null) {
        context.addIssue({
          code: 'custom',
          path: ['captchaToken'],
          message: 'Complete the security check',
        });
      }
    });
}
export type SignUpValues = z.input<ReturnType<typeof signUpSchema>>;

export function isCoastGuard(
  email: string,
  coastGuard: PublicConfig['coastGuard'] | undefined,
): boolean {
  return coastGuard !== undefined && isCoastGuardEmail(email, coastGuard);
}

/**
 * Where sign-up left the registration, in the registration machine's names (the API decides the
 * coast-guard step by the same machine): `coastGuardUnit` (the unit's name is asked for next)
 * or `complete`.
 */
export type SignUpOutcome =
  | { state: Extract<RegistrationState, 'coastGuardUnit'>; user: CurrentUser }
  | { state: Extract<RegistrationState, 'complete'> };

export { registrationPage } from './registration-page';

/**
 * SPEC.md §4 "Sign up": register, then either the reduced coast-guard path (phone and agency
 * skipped) or complete the profile with the listed agency, or join as an unlisted agency, and
 * reload the current user. The registration machine picks the path.
 */
export async function signUp(
  values: SignUpValues,
  coastGuard: PublicConfig['coastGuard'] | undefined,
): Promise<SignUpOutcome> {
  const token = expect(
    await api.auth.register({
      body: {
        firstName: values.firstName,
        lastName: values.lastName,
        email: values.email,
        password: values.password,
        agreedToTermsOfService: true,
        ...(values.captchaToken ? { captchaToken: values.captchaToken } : {}),
      },
    }),
    201,
  );
  const identified = stepRegistration(null, {
    type: 'IDENTITY_SUBMITTED',
    coastGuard: isCoastGuard(values.email, coastGuard),
  });
  if (identified.state === 'coastGuardUnit') {
    return { state: 'coastGuardUnit', user: await startSession(token) };
  }

  sessionStore.setToken(token);
  try {
    const phoneNumber = values.phoneNumber.trim() === '' ? undefined : values.phoneNumber.trim();
    if (values.agency === false) {
      expect(
        await api.auth.joinUnlisted({
          body: { companyName: values.companyName.trim(), phoneNumber },
        }),
        200,
      );
    } else if (values.agency) {
      expect(
        await api.auth.completeRegistration({
          body: { psapPrimaryKey: values.agency.id, phoneNumber },
        }),
        200,
      );
    }
    await reloadCurrentUser();
  } catch (error) {
    sessionStore.clear();
    throw error;
  }
  return { state: 'complete' };
}
