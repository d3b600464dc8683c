import { termsOfUse } from './documents';
import { LegalDialog, type LegalDialogProps } from './LegalDialog';

export function TermsDialog(props: LegalDialogProps) {
  return <LegalDialog document={termsOfUse} {...props} />;
}
