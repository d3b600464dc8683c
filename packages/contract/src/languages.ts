// No zod here: the caller's page imports this, and its whole script must stay a few kilobytes.

/** The text-message languages of SPEC.md §9, as codes: English (default), Spanish, French, Mandarin. */
export const smsLanguages = ['en', 'es', 'fr', 'zh'] as const;
export type SmsLanguageCode = (typeof smsLanguages)[number];
