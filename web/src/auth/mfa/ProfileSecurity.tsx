import { Divider, Stack } from '@mantine/core';
import { ChangePasswordSection } from '../ChangePasswordSection';
import { PasskeysSection } from '../passkeys/PasskeysSection';
import { SessionsSection } from './SessionsSection';
import { TwoStepSection } from './TwoStepSection';

/**
 * The profile's security part: the password, two-step sign-in, passkeys and the active sessions. Its own chunk (with
 * the QR code library loaded only when enrolment starts), so no page pays for it until the
 * profile opens.
 */
export default function ProfileSecurity() {
  return (
    <Stack mt="lg">
      <Divider />
      <ChangePasswordSection />
      <Divider />
      <TwoStepSection />
      <Divider />
      <PasskeysSection />
      <Divider />
      <SessionsSection />
    </Stack>
  );
}
