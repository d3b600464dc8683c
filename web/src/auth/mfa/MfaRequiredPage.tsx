import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../app/guard';
import { useSession } from '../../app/session';
import { PasskeysSection } from '../passkeys/PasskeysSection';
import { TwoStepSection } from './TwoStepSection';

/**
 * What a member of a team that requires two-step sign-in sees until they have set it up: the
 * API refuses everything else (403 `mfa-required`) meanwhile.
 */
export default function MfaRequiredPage() {
  const { user } = useSession();
  if (user?.mfaEnabled) return <SignInAgain />;
  return (
    <Container size="xs" py="xl" component="main" id="main-content">
      <Paper withBorder p="lg" radius="md">
        <Stack>
          <Title order={1} size="h3">
            Set up two-step sign-in
          </Title>
          <Text>
            Your team requires a second step each time you sign in: a code from an authenticator app
            or a passkey. Set one up now to continue to the console.
          </Text>
          <TwoStepSection />
          <PasskeysSection />
          <Group justify="flex-end">
            <Button component={Link} to={paths.signOut} variant="subtle">
              Sign out
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}

/**
 * A user who has a second factor but whose session never passed it (it was started before they
 * set one up, or before the rule): they sign in again, with the second step.
 */
function SignInAgain() {
  return (
    <Container size="xs" py="xl" component="main" id="main-content">
      <Paper withBorder p="lg" radius="md">
        <Stack>
          <Title order={1} size="h3">
            Sign in again
          </Title>
          <Text>
            Your team requires two-step sign-in, and this session was started without it. Sign in
            again with your password and your second step to continue to the console.
          </Text>
          <Group justify="flex-end">
            <Button component={Link} to={paths.signOut}>
              Sign in again
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
