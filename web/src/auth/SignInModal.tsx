import { Anchor, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { modalWidths } from '../public-site/modal-widths';
import { SignInFormFields } from './SignInForm';

/** SPEC.md §2 "Sign In". Success closes it and goes to the dashboard; closing clears its fields. */
export function SignInModal({
  opened,
  onClose,
  onCreateAccount,
}: {
  opened: boolean;
  onClose: () => void;
  onCreateAccount: () => void;
}) {
  const navigate = useNavigate();
  // Each opening starts a new form, however the modal was left (closed, or switched away from).
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!opened) setGeneration((value) => value + 1);
  }, [opened]);
  return (
    <Modal opened={opened} onClose={onClose} title="Sign In" size={modalWidths.narrow}>
      <SignInFormFields
        key={generation}
        onSignedIn={() => {
          onClose();
          void navigate('/dashboard');
        }}
        onNavigateAway={onClose}
      />
      <Text size="sm" ta="center" mt="md">
        New to Locus?{' '}
        <Anchor component="button" type="button" underline="always" onClick={onCreateAccount}>
          Create Account
        </Anchor>
      </Text>
    </Modal>
  );
}
