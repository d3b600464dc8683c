import type { ReactNode } from 'react';
import { useState } from 'react';
import { BookDemoModal, PrivacyPolicyDialog, TermsDialog } from './dialogs';
import type { SitePage } from './navigation';
import { usePublicConfig } from './public-config';
import classes from './public-site.module.css';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';

/** What the shell passes to the public pages, so that its Sign In and Create Account modals open. */
export interface PublicPageProps {
  onSignIn(): void;
  onSignUp(): void;
}

type Dialog = 'book-demo' | 'privacy' | 'terms' | null;

/** Header, main landmark and footer around a public page, plus the dialogs any of them can open. */
export function SiteFrame({
  page,
  onSignIn,
  onSignUp,
  children,
}: PublicPageProps & { page: SitePage; children(actions: { openBookDemo(): void }): ReactNode }) {
  const config = usePublicConfig();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  return (
    <div className={classes.site}>
      <a href="#main" className={classes.skipLink}>
        Skip to main content
      </a>
      <SiteHeader page={page} onSignIn={onSignIn} onSignUp={onSignUp} />
      <main id="main" tabIndex={-1}>
        {children({ openBookDemo: () => setDialog('book-demo') })}
      </main>
      <SiteFooter
        page={page}
        config={config.data}
        onOpenPrivacy={() => setDialog('privacy')}
        onOpenTerms={() => setDialog('terms')}
      />
      <BookDemoModal
        opened={dialog === 'book-demo'}
        onClose={close}
        captcha={config.data?.captcha}
      />
      <PrivacyPolicyDialog opened={dialog === 'privacy'} onClose={close} onAccept={close} />
      <TermsDialog opened={dialog === 'terms'} onClose={close} onAccept={close} />
    </div>
  );
}
