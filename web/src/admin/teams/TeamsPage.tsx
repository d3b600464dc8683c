import type { ManagedTeam, Team } from '@locus/contract';
import { Alert, Anchor, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../app/api';
import { permissionsOf } from '../../app/permissions';
import { useSession } from '../../app/session';
import { TeamMembersPanel } from '../users/TeamMembersPanel';
import { CallListsPanel } from './CallListsPanel';
import { manageableTeams } from './manageable-teams';
import { failureMessage } from './queries';
import { TeamAgenciesPanel } from './TeamAgenciesPanel';
import { TeamLinksPanel } from './TeamLinksPanel';
import { useManagedTeam } from './team-queries';
import { TeamSecurityPanel } from './TeamSecurityPanel';
import { TeamSettingsPanel } from './TeamSettingsPanel';
import { TeamsTable } from './TeamsTable';

/** A platform admin: the admin flag and a member of the platform owner's team (SPEC.md §6). */
function usePlatformAdmin(): boolean {
  const { user, teams } = useSession();
  return user !== null && user.isAdmin && teams.some((team) => team.isPlatformOwner);
}

/**
 * /admin/teams: the teams the user manages (every team for platform admins, who create teams
 * here), then the call lists of the teams they belong to as an admin.
 */
export function TeamsPage() {
  const { user, teams } = useSession();
  const platformAdmin = usePlatformAdmin();
  const managed = manageableTeams(user, teams);
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Title order={1} fz={26}>
          Teams
        </Title>
        {(platformAdmin || permissionsOf(user, teams).admin) && (
          <TeamsTable platformAdmin={platformAdmin} />
        )}
        {managed.length === 0 ? (
          <Text>
            You are not an admin of any team, so there are no call lists for you to manage here.
          </Text>
        ) : (
          managed.map((team) => <CallListsPanel key={team.id} team={team} />)
        )}
      </Stack>
    </Container>
  );
}

/** The panels need a `Team`; an admin edits it as its admin, whatever their own role. */
const asTeam = (team: ManagedTeam): Team => ({ ...team, role: 'admin' });

function TeamEditor({ team, platformAdmin }: { team: ManagedTeam; platformAdmin: boolean }) {
  return (
    <>
      <TeamSettingsPanel team={team} platformAdmin={platformAdmin} />
      <TeamMembersPanel team={asTeam(team)} />
      <TeamAgenciesPanel team={team} />
      <TeamLinksPanel team={team} />
      <CallListsPanel team={asTeam(team)} />
      <TeamSecurityPanel team={asTeam(team)} />
    </>
  );
}

/**
 * /admin/teams/{id}/edit: one team's settings, members, agencies, custom links, call lists and
 * security. The team comes from GET /api/v1/teams/{id}, so a platform admin can open any team;
 * a team that is not the user's answers 404 and shows "Team not found".
 */
export function TeamEditPage() {
  const { id = '' } = useParams();
  const platformAdmin = usePlatformAdmin();
  const team = useManagedTeam(id);
  const missing =
    team.isError &&
    team.error instanceof ApiError &&
    (team.error.status === 404 || team.error.status === 400 || team.error.status === 403);
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Anchor component={Link} to="/admin/teams" size="sm">
          All teams
        </Anchor>
        {team.isPending && <Loader size="sm" aria-label="Loading the team" />}
        {team.data && (
          <Title order={1} fz={26} style={{ overflowWrap: 'anywhere' }}>
            Team: {team.data.teamName}
          </Title>
        )}
        {missing && (
          <>
            <Title order={1} fz={26}>
              Team not found
            </Title>
            <Text>This is not a team you administer.</Text>
          </>
        )}
        {team.isError && !missing && (
          <>
            <Title order={1} fz={26}>
              Team
            </Title>
            <Alert color="red" role="alert">
              The team could not be loaded: {failureMessage(team.error)}
            </Alert>
          </>
        )}
        {team.data && <TeamEditor team={team.data} platformAdmin={platformAdmin} />}
      </Stack>
    </Container>
  );
}
