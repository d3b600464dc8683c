import type { CurrentUser, Passkey } from '@locus/contract';
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { api, expect } from '../../app/api';
import { startSession } from '../../app/auth';
import { PasskeyCeremonyError } from './ceremony-error';

/**
 * The browser's part of passkeys (@simplewebauthn/browser). Loaded only when a passkey is added
 * or used (`import('./ceremony')`), so that the landing page does not carry the library.
 */

async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new PasskeyCeremonyError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}

/**
 * Creates a passkey on this device (or a security key) and registers it under `name`; the
 * current password is checked before the server issues the options.
 */
export async function addPasskey(name: string, password: string): Promise<Passkey> {
  const options = expect(await api.passkeys.registrationOptions({ body: { password } }), 200);
  const response = await ceremony(() =>
    startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    }),
  );
  return expect(await api.passkeys.add({ body: { name, response } }), 201);
}

/** Sign-in's second step with a passkey: the device signs the server's challenge. */
export async function signInWithPasskey(challenge: string): Promise<CurrentUser> {
  const options = expect(await api.passkeys.signInOptions({ body: { challenge } }), 200);
  const response = await ceremony(() =>
    startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    }),
  );
  return startSession(expect(await api.passkeys.signIn({ body: { challenge, response } }), 200));
}
