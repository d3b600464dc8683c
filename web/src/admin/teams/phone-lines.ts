import { normalisePhoneInput, PhoneNumber } from '@locus/contract';

export interface PhoneLine {
  /** The line as typed (trimmed). */
  input: string;
  /** The number in E.164, or null when the line is not a valid phone number. */
  phoneNumber: string | null;
}

/** One number typed or pasted: +1 is prepended when there is no leading + (SPEC.md §5, §9). */
export function parsePhone(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed === '') return null;
  const parsed = PhoneNumber.safeParse(normalisePhoneInput(trimmed));
  return parsed.success ? parsed.data : null;
}

/**
 * Numbers pasted one per line. Blank lines are skipped; invalid lines are kept so that the
 * screen can show them; `numbers` holds the valid ones once each, in the order pasted.
 */
export function parsePhoneLines(text: string): { lines: PhoneLine[]; numbers: string[] } {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((input) => ({ input, phoneNumber: parsePhone(input) }));
  const numbers = [
    ...new Set(lines.flatMap((line) => (line.phoneNumber === null ? [] : [line.phoneNumber]))),
  ];
  return { lines, numbers };
}
