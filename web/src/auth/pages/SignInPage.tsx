import { Anchor, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { SignedOutNotice } from '../../app/idle/SignedOutNotice';
import { useAuthModals } from '../AuthModals';
import { SignInFormFields } from '../SignInForm';
import { PageHeading } from './PageHeading';

/** /auth/sign-in: the Sign In modal's form as a page (where sign-out and expired links land). */
export function SignInPage() {
  const navigate = useNavigate();
  const modals = useAuthModals();
  return (
    <>
      <PageHeading title="Sign In">Welcome back. Sign in to locate callers.</PageHeading>
      <SignedOutNotice />
      <SignInFormFields onSignedIn={() => void navigate('/dashboard')} />
      <Text size="sm" ta="center" mt="lg">
        New to Locus?{' '}
        <Anchor
          component="button"
          type="button"
          underline="always"
          onClick={modals.openCreateAccount}
        >
          Create Account
        </Anchor>
      </Text>
    </>
  );
}
