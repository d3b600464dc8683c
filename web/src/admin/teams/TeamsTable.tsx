import { PagerNav } from '../PagerNav';
import { pageLimits, type ManagedTeam } from '@locus/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { CreateTeamModal } from './CreateTeamModal';
import { failureMessage } from './queries';
import { useTeamList } from './team-queries';

const pageSize = pageLimits.defaultPageSize;

/**
 * A team's levels as badges; a team with none is on the basic level. Filled with dark shades:
 * Mantine's light badges fall under AA contrast.
 */
export function LevelBadges({ team }: { team: Pick<ManagedTeam, 'permissionLevels'> }) {
  if (team.permissionLevels.length === 0) return <Badge variant="default">Basic</Badge>;
  return (
    <Group gap={4} wrap="wrap">
      {team.permissionLevels.map((level) => (
        <Badge key={level} variant="filled" color={level === 'enterprise' ? 'grape.9' : 'navy.8'}>
          {level === 'enterprise' ? 'Enterprise' : 'Premiere'}
        </Badge>
      ))}
    </Group>
  );
}

export function ActiveBadge({ isActive }: { isActive: boolean }) {
  return isActive ? (
    <Badge variant="filled" color="teal.9">
      Active
    </Badge>
  ) : (
    <Badge variant="filled" color="red.9">
      Inactive
    </Badge>
  );
}

/**
 * The teams an admin manages (GET /api/v1/teams): every team for platform admins, who also
 * create teams here; the teams they administer for team admins. Searched by name, a page at a
 * time; each links to its edit page.
 */
export function TeamsTable({ platformAdmin }: { platformAdmin: boolean }) {
  const headingId = useId();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const teams = useTeamList({ search: debounced, page, pageSize });
  const total = teams.data?.total ?? 0;
  const title = platformAdmin ? 'All teams' : 'Your teams';

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id={headingId}>
            {title}
          </Title>
          {platformAdmin && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Create team
            </Button>
          )}
        </Group>
        <TextInput
          label="Search teams"
          placeholder="Part of the team’s name"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          maw={360}
        />
        {teams.isPending && <Loader size="sm" aria-label="Loading teams" />}
        {teams.isError && (
          <Alert color="red" role="alert">
            The teams could not be loaded: {failureMessage(teams.error)}
          </Alert>
        )}
        {teams.data && teams.data.items.length === 0 && (
          <Text>{debounced ? `No team matches “${debounced}”.` : 'No teams yet.'}</Text>
        )}
        {teams.data && teams.data.items.length > 0 && (
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs" aria-labelledby={headingId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Team</Table.Th>
                  <Table.Th>Level</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th visibleFrom="sm">Members</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {teams.data.items.map((team) => (
                  <Table.Tr key={team.id}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={`/admin/teams/${team.id}/edit`}
                        underline="always"
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {team.teamName}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <LevelBadges team={team} />
                    </Table.Td>
                    <Table.Td>
                      <ActiveBadge isActive={team.isActive} />
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{team.memberCount}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <PagerNav
          label={`Pages of ${title.toLowerCase()}`}
          page={page}
          pageSize={pageSize}
          total={total}
          noun="teams"
          onPage={setPage}
        />
      </Stack>
      {platformAdmin && <CreateTeamModal opened={creating} onClose={() => setCreating(false)} />}
    </Card>
  );
}
