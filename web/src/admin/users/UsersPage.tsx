import { teamRoleLabels, type AdminUser, type UserSort } from '@locus/contract';
import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Loader,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconArrowDown,
  IconArrowUp,
  IconArrowsSort,
  IconSearch,
  IconUserPlus,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useSession } from '../../app/session';
import { manageableTeams } from '../teams/manageable-teams';
import { formatDate, formatDateTime, fullName } from './format';
import { InviteUsersModal } from './InviteUsersModal';
import { failureMessage, useAllTeams, useUsersPage } from './queries';
import { UserDrawer } from './UserDrawer';

const pageSize = 25;

type Direction = 'asc' | 'desc';

function SortHeader({
  label,
  sortKey,
  sort,
  direction,
  onSort,
}: {
  label: string;
  sortKey: UserSort;
  sort: UserSort;
  direction: Direction;
  onSort: (key: UserSort) => void;
}) {
  const active = sort === sortKey;
  const Icon = !active ? IconArrowsSort : direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(sortKey)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap">
          {label}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** "Platform admin", then "Team admin" / "Dispatcher" per team (filled: readable contrast). */
export function RoleBadges({ user }: { user: AdminUser }) {
  return (
    <Group gap={4}>
      {user.isPlatformAdmin && (
        <Badge variant="filled" color="grape.9">
          Platform admin
        </Badge>
      )}
      {user.teams.map((team) =>
        team.role === 'admin' ? (
          <Badge key={team.teamId} variant="filled" color="navy.8" title={team.teamName}>
            {teamRoleLabels.admin}
          </Badge>
        ) : (
          <Badge key={team.teamId} variant="default" title={team.teamName}>
            {teamRoleLabels.member}
          </Badge>
        ),
      )}
    </Group>
  );
}

function ConfirmedBadge({ confirmed }: { confirmed: boolean }) {
  return confirmed ? (
    <Badge variant="filled" color="teal.9">
      Confirmed
    </Badge>
  ) : (
    <Badge variant="filled" color="red.9">
      Not confirmed
    </Badge>
  );
}

/** /admin and /admin/users: the users an admin manages, their detail, invitations. */
export function UsersPage() {
  const { user, teams } = useSession();
  const platformAdmin = Boolean(user?.isAdmin && teams.some((team) => team.isPlatformOwner));
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<UserSort>('name');
  const [direction, setDirection] = useState<Direction>('asc');
  const [page, setPage] = useState(1);
  const [teamId, setTeamId] = useState<string | null>(null);
  const [openUser, setOpenUser] = useState<string | null>(null);
  const [inviting, setInviting] = useState(false);

  const allTeams = useAllTeams(platformAdmin);
  const inviteTeams = platformAdmin ? (allTeams.data?.items ?? []) : manageableTeams(user, teams);

  const users = useUsersPage({
    page,
    pageSize,
    sort,
    direction,
    ...(debouncedSearch ? { search: debouncedSearch } : {}),
    ...(teamId ? { teamId } : {}),
  });
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  const onSort = (key: UserSort) => {
    if (key === sort) setDirection(direction === 'asc' ? 'desc' : 'asc');
    else {
      setSort(key);
      setDirection('asc');
    }
    setPage(1);
  };
  const sortProps = { sort, direction, onSort };

  return (
    <Container size="xl" py="md">
      <Stack>
        <Group justify="space-between">
          <Title order={1} size="h2">
            Users
          </Title>
          <Button
            leftSection={<IconUserPlus size={16} />}
            onClick={() => setInviting(true)}
            disabled={inviteTeams.length === 0}
          >
            Invite users
          </Button>
        </Group>
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Search users"
            description="Name or email"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            type="search"
            w={{ base: '100%', sm: 320 }}
          />
          {platformAdmin && (
            <Select
              label="Team"
              placeholder="All teams"
              data={(allTeams.data?.items ?? []).map((team) => ({
                value: team.id,
                label: team.teamName,
              }))}
              value={teamId}
              onChange={(value) => {
                setTeamId(value);
                setPage(1);
              }}
              clearable
              searchable
              w={{ base: '100%', sm: 260 }}
            />
          )}
        </Group>
        <Text size="sm" aria-live="polite">
          {users.data ? (total === 1 ? '1 user' : `${total} users`) : ' '}
        </Text>
        {users.isPending && <Loader size="sm" aria-label="Loading users" />}
        {users.isError && (
          <Alert color="red" role="alert">
            The users could not be loaded: {failureMessage(users.error)}
          </Alert>
        )}
        {users.data && users.data.items.length === 0 && (
          <Text>{debouncedSearch ? 'No user matches your search.' : 'No users yet.'}</Text>
        )}
        {users.data && users.data.items.length > 0 && (
          <Table.ScrollContainer minWidth={860}>
            <Table striped highlightOnHover aria-label="Users">
              <Table.Thead>
                <Table.Tr>
                  <SortHeader label="Name" sortKey="name" {...sortProps} />
                  <SortHeader label="Email" sortKey="email" {...sortProps} />
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Teams</Table.Th>
                  <Table.Th>Email confirmed</Table.Th>
                  <SortHeader label="Registered" sortKey="createdAt" {...sortProps} />
                  <SortHeader label="Last sign-in" sortKey="lastSignInAt" {...sortProps} />
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {users.data.items.map((row) => (
                  <Table.Tr
                    key={row.id}
                    onClick={() => setOpenUser(row.id)}
                    style={{ cursor: 'pointer' }}
                  >
                    <Table.Td>{fullName(row)}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.email}</Table.Td>
                    <Table.Td>
                      <RoleBadges user={row} />
                    </Table.Td>
                    <Table.Td>
                      {row.teams.map((team) => team.teamName).join(', ') || row.companyName || '—'}
                    </Table.Td>
                    <Table.Td>
                      <ConfirmedBadge confirmed={row.emailConfirmed} />
                    </Table.Td>
                    <Table.Td>{formatDate(row.createdAt)}</Table.Td>
                    <Table.Td>
                      {row.lastSignInAt ? formatDateTime(row.lastSignInAt) : 'Never'}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="light"
                        onClick={(event) => {
                          event.stopPropagation();
                          setOpenUser(row.id);
                        }}
                        aria-label={`Details of ${fullName(row)}`}
                      >
                        Details
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {pages > 1 && (
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({
              'aria-label':
                control === 'previous'
                  ? 'Previous page'
                  : control === 'next'
                    ? 'Next page'
                    : control === 'first'
                      ? 'First page'
                      : 'Last page',
            })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        )}
      </Stack>
      <UserDrawer userId={openUser} onClose={() => setOpenUser(null)} />
      <InviteUsersModal
        opened={inviting}
        onClose={() => setInviting(false)}
        teams={inviteTeams.map((team) => ({ id: team.id, teamName: team.teamName }))}
      />
    </Container>
  );
}
