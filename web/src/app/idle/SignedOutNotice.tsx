import { Alert } from '@mantine/core';
import { useState } from 'react';
import { takeSignedOutNotice } from './signed-out-notice';

/** On the sign-in page: why the console signed the user out (after an idle timeout). */
export function SignedOutNotice() {
  const [message] = useState(takeSignedOutNotice);
  if (!message) return null;
  return (
    <Alert color="blue" role="alert" mb="md">
      {message}
    </Alert>
  );
}
