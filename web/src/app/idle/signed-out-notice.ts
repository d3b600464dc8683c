/** A message for the sign-in page after the console signed the user out by itself. */
const storageKey = 'locus.signedOutNotice';

export function leaveSignedOutNotice(message: string): void {
  sessionStorage.setItem(storageKey, message);
}

/** The message, once: a reload of the sign-in page no longer shows it. */
export function takeSignedOutNotice(): string | null {
  const message = sessionStorage.getItem(storageKey);
  sessionStorage.removeItem(storageKey);
  return message;
}

/** "30 minutes", or seconds for a timeout that is not whole minutes (tests use a few seconds). */
export function describeTimeout(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
