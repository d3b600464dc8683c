/**
 * What the caller's page (`web/share.html`) may import from the contract: texts, languages and
 * socket constants, with no zod and no libphonenumber, so the page's script stays a few
 * kilobytes. Types are free: they vanish at build time.
 */
export { callerTexts, callerLanguageFromAcceptLanguage } from './i18n/caller-texts';
export type { CallerPageTexts, CallerTexts, PermissionSteps } from './i18n/caller-texts';
export { callerTextsVersion, type ConsentScreen } from './i18n/consent';
export { callerLinkPath, callerLinkTokenPattern } from './caller-link';
export { smsLanguages, type SmsLanguageCode as SmsLanguage } from './languages';
export { formatLocationText, smsUri, textLocationFormat } from './text-location';
export { closeCodes, realtimeLimits, realtimePaths } from './socket-constants';
export type { CallerClientFrame, CallerServerFrame } from './realtime';
export type { CallerFix } from './location';
export type { CallerLink } from './tracking';
