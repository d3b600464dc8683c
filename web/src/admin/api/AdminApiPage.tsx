import { Alert, Anchor, Badge, Container, List, Stack, Text, Title } from '@mantine/core';
import { permissionsOf } from '../../app/permissions';
import { useSession } from '../../app/session';
import { TeamApiKeys } from './TeamApiKeys';

/**
 * /admin/admin-api (SPEC.md §2, §5: enterprise level only). The route guard sends anyone
 * without the enterprise level back to /admin; this page says why if it is ever reached
 * without it.
 */
export function AdminApiPage() {
  const { user, teams } = useSession();
  // The teams whose keys this user manages: enterprise-level, and administered by them (the
  // API refuses a dispatcher of the team, whatever their role elsewhere).
  const enterpriseTeams = teams.filter(
    (team) =>
      team.isActive &&
      team.permissionLevels.includes('enterprise') &&
      (user?.isAdmin === true || team.role === 'admin'),
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
            {enterpriseTeams.length === 0 && (
              <Alert color="navy" role="alert" title="No team to manage">
                Only a team admin of an enterprise-level team can create its API keys. Ask your
                team’s admin.
              </Alert>
            )}
            {enterpriseTeams.map((team) => (
              <TeamApiKeys key={team.id} teamId={team.id} teamName={team.teamName} />
            ))}
          </>
        )}
      </Stack>
    </Container>
  );
}
