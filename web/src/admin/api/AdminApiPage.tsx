import {
  Alert,
  Anchor,
  Badge,
  Card,
  Container,
  List,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useId } from 'react';
import { permissionsOf } from '../../app/permissions';
import { useSession } from '../../app/session';

/**
 * The partner-access part of one enterprise team. There is nothing to list yet: partner API keys
 * are a separate issue, so this is the empty state that says what they will do.
 */
function TeamApiAccess({ teamName }: { teamName: string }) {
  const headingId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
          {teamName}
        </Title>
        <Stack gap="xs" align="center" ta="center" py="md">
          <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
            <IconKey size={26} />
          </ThemeIcon>
          <Text fw={600}>No partner access yet</Text>
          <Text size="sm" c="dimmed" maw={520}>
            This team has no API keys and no webhooks. Partner access is being prepared; when it
            opens, this page lists them.
          </Text>
        </Stack>
      </Stack>
    </Card>
  );
}

/**
 * /admin/admin-api (SPEC.md §2, §5: enterprise level only). The route guard sends anyone
 * without the enterprise level back to /admin; this page says why if it is ever reached
 * without it.
 */
export function AdminApiPage() {
  const { user, teams } = useSession();
  const enterpriseTeams = teams.filter(
    (team) => team.isActive && team.permissionLevels.includes('enterprise'),
  );
  const allowed = permissionsOf(user, teams).enterprise;
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Title order={1} fz={26}>
          API
        </Title>
        {!allowed ? (
          <Alert color="yellow" role="alert" title="This page needs the enterprise level">
            Partner API access is part of the enterprise level, and none of your teams has it.
            Contact Locus to upgrade your team.
          </Alert>
        ) : (
          <>
            <Text>
              Partner access lets your own systems work with Locus: a computer-aided dispatch (CAD)
              system can start a locate and receive the caller’s location without a dispatcher
              retyping the number.
            </Text>
            <List spacing={6} size="sm">
              <List.Item>
                <Text span fw={600}>
                  API keys:
                </Text>{' '}
                one per integration, shown once when created, revocable at any time.
              </List.Item>
              <List.Item>
                <Text span fw={600}>
                  Signed webhooks:
                </Text>{' '}
                locations and session events pushed to your endpoint, each signed so that your
                system can verify it came from Locus.
              </List.Item>
              <List.Item>
                <Text span fw={600}>
                  A typed REST contract:
                </Text>{' '}
                every call, its fields and its errors, described in the{' '}
                <Anchor
                  href="/api/docs"
                  target="_blank"
                  rel="noopener noreferrer"
                  underline="always"
                >
                  API documentation
                </Anchor>
                .
              </List.Item>
            </List>
            <Badge variant="filled" color="grape.9" w="fit-content">
              Enterprise
            </Badge>
            {enterpriseTeams.map((team) => (
              <TeamApiAccess key={team.id} teamName={team.teamName} />
            ))}
          </>
        )}
      </Stack>
    </Container>
  );
}
