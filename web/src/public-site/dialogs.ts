import { lazyModal } from '../app/lazy-page';

/*
 * The site's dialogs, each downloaded the first time it opens: the legal texts and the demo form
 * (with its validation and the API contract) would otherwise weigh more than the landing page.
 */

export const BookDemoModal = lazyModal(
  () => import('./book-demo/BookDemoModal'),
  (module) => module.BookDemoModal,
);

export const PrivacyPolicyDialog = lazyModal(
  () => import('./legal/PrivacyPolicyDialog'),
  (module) => module.PrivacyPolicyDialog,
);

export const TermsDialog = lazyModal(
  () => import('./legal/TermsDialog'),
  (module) => module.TermsDialog,
);
