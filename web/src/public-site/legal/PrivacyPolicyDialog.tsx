import { privacyPolicy } from './documents';
import { LegalDialog, type LegalDialogProps } from './LegalDialog';

export function PrivacyPolicyDialog(props: LegalDialogProps) {
  return <LegalDialog document={privacyPolicy} {...props} />;
}
