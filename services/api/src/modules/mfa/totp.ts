import { generateSecret, generateURI, verify } from 'otplib';

/** The name authenticator apps show beside the account. */
const ISSUER = 'Locus';

/**
 * Codes from the step before and after the current one are accepted, for a phone's clock that
 * is a little off and for the time it takes to type.
 */
const EPOCH_TOLERANCE_SECONDS = 30;

/** A new base32 secret (160 bits, as RFC 4226 recommends) and the URI its QR code holds. */
export function newTotpSecret(accountName: string): { secret: string; uri: string } {
  const secret = generateSecret({ length: 20 });
  return { secret, uri: generateURI({ issuer: ISSUER, label: accountName, secret }) };
}

/**
 * The time step the code belongs to, or undefined when it is wrong. Codes of `afterTimeStep` and
 * earlier are refused: each code works once.
 */
export async function checkTotpCode(
  secret: string,
  code: string,
  afterTimeStep: number | null,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epochTolerance: EPOCH_TOLERANCE_SECONDS,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
