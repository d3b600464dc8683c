import { errorCode } from '../app/api';

/**
 * Answers that are not about the password typed: the network is being slowed down after
 * repeated failures (429), or a captcha must be solved first. The form explains these itself
 * instead of "Invalid email or password".
 */
export function isSignInDefence(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'rate-limited' || code === 'captcha-required';
}
