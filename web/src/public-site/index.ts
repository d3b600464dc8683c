/** The public site: what the app shell mounts at / and /about, and the pieces sign-up reuses. */
export { AboutPage } from './AboutPage';
export { BookDemoModal } from './book-demo/BookDemoModal';
export { CaptchaWidget, type CaptchaSettings } from './book-demo/CaptchaWidget';
export { LandingPage } from './LandingPage';
export { privacyPolicy, termsOfUse, type LegalDocument } from './legal/documents';
export type { LegalDialogProps } from './legal/LegalDialog';
export { PrivacyPolicyDialog } from './legal/PrivacyPolicyDialog';
export { TermsDialog } from './legal/TermsDialog';
export { modalWidths } from './modal-widths';
export { usePublicConfig, publicConfigQueryKey } from './public-config';
export type { PublicPageProps } from './SiteFrame';
