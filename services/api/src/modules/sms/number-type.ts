// The full ("max") metadata is what knows number types; it is large, so only the API loads it
// and the web app keeps the small default metadata of the contract.
import { parsePhoneNumberFromString, type NumberType } from 'libphonenumber-js/max';

type KnownType = NonNullable<NumberType>;

/**
 * Number types no caller can be texted at, with how the dispatcher is told. A premium-rate or
 * shared-cost number would bill someone for our text (or be a fraud's revenue line), a toll-free
 * or UAN number is a call centre's inbound line, a pager, voicemail box or plain landline cannot
 * receive an SMS at all.
 *
 * Allowed: MOBILE; FIXED_LINE_OR_MOBILE (most North American numbers: the plan does not tell
 * them apart); VOIP and PERSONAL_NUMBER (they forward texts to a phone); and a valid number whose
 * type the metadata does not know: refusing it could keep a real caller from being located.
 */
const untextable: Partial<Record<KnownType, string>> = {
  PREMIUM_RATE: 'a premium-rate number',
  TOLL_FREE: 'a toll-free number',
  SHARED_COST: 'a shared-cost number',
  UAN: 'a company switchboard number (UAN)',
  PAGER: 'a pager number',
  VOICEMAIL: 'a voicemail access number',
  FIXED_LINE: 'a landline',
};

/** Why an E.164 number cannot receive a text ("a premium-rate number"), or null when it can. */
export function untextableReason(e164: string): string | null {
  const type = parsePhoneNumberFromString(e164)?.getType();
  return type ? (untextable[type] ?? null) : null;
}

/** The dispatcher's sentence for an untextable number. */
export function untextableMessage(e164: string, reason: string): string {
  return `${e164} is ${reason} and cannot receive text messages. Ask the caller for a mobile number.`;
}
