import type { Team } from '@locus/contract';
import { Anchor, Badge, Card, Container, List, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useSession } from '../../app/session';
import { CallListsPanel } from './CallListsPanel';
import { manageableTeams } from './manageable-teams';
import { TeamSecurityPanel } from './TeamSecurityPanel';

/** What the rest of a team's settings will be; built by a later issue. */
function TeamSettingsComingSoon() {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="team-settings">
      <Stack gap="xs">
        <Badge variant="light" color="signal" w="fit-content">
          Coming soon
        </Badge>
        <Title order={2} size="h4" id="team-settings">
          Team settings
        </Title>
        <List size="sm" spacing={4}>
          <List.Item>Create teams and link them to their agency.</List.Item>
          <List.Item>Set a team’s permission levels (premiere, enterprise).</List.Item>
          <List.Item>Edit the custom links shown in your team’s header and user menu.</List.Item>
          <List.Item>Add users to a team with a role.</List.Item>
        </List>
      </Stack>
    </Card>
  );
}

function NoTeams() {
  return (
    <Text>
      You are not an admin of any team, so there are no call lists for you to manage here.
    </Text>
  );
}

function TeamLinks({ teams }: { teams: Team[] }) {
  if (teams.length < 2) return null;
  return (
    <nav aria-label="Your teams">
      <Text size="sm">
        Teams:{' '}
        {teams.map((team, index) => (
          <span key={team.id}>
            {index > 0 && ' · '}
            <Anchor component={Link} to={`/admin/teams/${team.id}/edit`} underline="always">
              {team.teamName}
            </Anchor>
          </span>
        ))}
      </Text>
    </nav>
  );
}

/** /admin/teams: the call lists of every team the user administers. */
export function TeamsPage() {
  const { user, teams } = useSession();
  const managed = manageableTeams(user, teams);
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Title order={1} fz={26}>
          Teams
        </Title>
        <TeamLinks teams={managed} />
        {managed.length === 0 ? (
          <NoTeams />
        ) : (
          managed.map((team) => <CallListsPanel key={team.id} team={team} />)
        )}
        <TeamSettingsComingSoon />
      </Stack>
    </Container>
  );
}

/** /admin/teams/{id}/edit: one team's call lists; its other settings come later. */
export function TeamEditPage() {
  const { id } = useParams();
  const { user, teams } = useSession();
  const team = manageableTeams(user, teams).find((candidate) => candidate.id === id);
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Anchor component={Link} to="/admin/teams" size="sm">
          All teams
        </Anchor>
        <Title order={1} fz={26}>
          {team ? `Team: ${team.teamName}` : 'Team not found'}
        </Title>
        {team ? <CallListsPanel team={team} /> : <Text>This is not a team you administer.</Text>}
        {team && <TeamSecurityPanel team={team} />}
        <TeamSettingsComingSoon />
      </Stack>
    </Container>
  );
}
