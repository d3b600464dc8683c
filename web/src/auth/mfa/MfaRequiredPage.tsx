import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../app/guard';
import { TwoStepSection } from './TwoStepSection';

/**
 * What a member of a team that requires two-step sign-in sees until they have set it up: the
 * API refuses everything else (403 `mfa-required`) meanwhile.
 */
export default function MfaRequiredPage() {
  return (
    <Container size="xs" py="xl" component="main" id="main-content">
      <Paper withBorder p="lg" radius="md">
        <Stack>
          <Title order={1} size="h3">
            Set up two-step sign-in
          </Title>
          <Text>
            Your team requires a code from an authenticator app each time you sign in. Set it up now
            to continue to the console.
          </Text>
          <TwoStepSection />
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
