import type { Team } from '@locus/contract';
import { Alert, Card, Group, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { fullName } from './format';
import { RemoveFromTeam, RoleSelect } from './MemberActions';
import { failureMessage, useTeamMembers } from './queries';

const pageSize = 25;

/** The members of one team with their role: change it, or remove them (for /admin/teams/{id}/edit). */
export function TeamMembersPanel({ team }: { team: Team }) {
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const members = useTeamMembers(team.id, page);
  const titleId = `team-members-${team.id}`;
  const total = members.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id={titleId}>
            Members
          </Title>
          {members.data && <Text size="sm">{total === 1 ? '1 member' : `${total} members`}</Text>}
        </Group>
        {error && (
          <Alert color="red" role="alert" title="Not changed" withCloseButton={false}>
            {error}
          </Alert>
        )}
        {members.isPending && (
          <Loader size="sm" aria-label={`Loading members of ${team.teamName}`} />
        )}
        {members.isError && (
          <Alert color="red" role="alert">
            The members could not be loaded: {failureMessage(members.error)}
          </Alert>
        )}
        {members.data?.items.length === 0 && <Text>No members yet.</Text>}
        {members.data && members.data.items.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table striped aria-label={`Members of ${team.teamName}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Remove</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.data.items.map((member) => {
                  const ref = {
                    userId: member.id,
                    name: fullName(member),
                    teamId: team.id,
                    teamName: team.teamName,
                    role: member.role,
                  };
                  return (
                    <Table.Tr key={member.id}>
                      <Table.Td>{fullName(member)}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{member.email}</Table.Td>
                      <Table.Td>
                        <RoleSelect member={ref} onError={setError} />
                      </Table.Td>
                      <Table.Td>
                        <RemoveFromTeam member={ref} onError={setError} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {pages > 1 && (
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        )}
      </Stack>
    </Card>
  );
}
