import type { TeamSessionSummary } from '@locus/contract';
import {
  Alert,
  Anchor,
  Badge,
  Card,
  Container,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../app/session';
import { PagerNav } from '../PagerNav';
import { exportStateLabels, when } from './labels';
import { failureMessage, useTeamSessions } from './queries';

export { SessionDetailPage } from './SessionDetailPage';

const pageSize = 25;

/**
 * /admin/sessions (issue 15): the team's sessions, newest first, with what evidence each holds:
 * consent receipts, the export's state and a legal hold. Team admins see their teams'.
 */
export function SessionListPage() {
  const { user, teams } = useSession();
  const administered = teams.filter((team) => user?.isAdmin === true || team.role === 'admin');
  const [chosen, setChosen] = useState<string | null>(null);
  const teamId = chosen ?? administered[0]?.id ?? null;
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Title order={1} fz={26}>
          Sessions
        </Title>
        <Text>
          Each session keeps what the caller agreed to, its export and its signed evidence file. Put
          a session under legal hold to keep its history past the team’s retention.
        </Text>
        {administered.length === 0 || teamId === null ? (
          <Text>Only a team admin can see the team’s sessions. Ask your team’s admin.</Text>
        ) : (
          <>
            {administered.length > 1 && (
              <Select
                label="Team"
                data={administered.map((team) => ({ value: team.id, label: team.teamName }))}
                value={teamId}
                onChange={(value) => value && setChosen(value)}
                allowDeselect={false}
                w={320}
              />
            )}
            <TeamSessionTable key={teamId} teamId={teamId} />
          </>
        )}
      </Stack>
    </Container>
  );
}

function TeamSessionTable({ teamId }: { teamId: string }) {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const sessions = useTeamSessions(teamId, page, pageSize);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz={18} id={headingId}>
          Past and current sessions
        </Title>
        {sessions.isPending ? (
          <Group gap="xs">
            <Loader size="sm" aria-hidden />
            <Text size="sm">Loading sessions…</Text>
          </Group>
        ) : sessions.isError ? (
          <Alert color="red" role="alert" title="The sessions could not be loaded">
            {failureMessage(sessions.error)}
          </Alert>
        ) : sessions.data.items.length === 0 ? (
          <Text size="sm">No session yet.</Text>
        ) : (
          <>
            <Table.ScrollContainer minWidth={0}>
              <Table verticalSpacing="xs" aria-labelledby={headingId}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Numbers</Table.Th>
                    <Table.Th visibleFrom="sm">Dispatcher</Table.Th>
                    <Table.Th visibleFrom="sm">Consent receipts</Table.Th>
                    <Table.Th>Evidence</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {sessions.data.items.map((session) => (
                    <SessionRow key={session.id} teamId={teamId} session={session} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <PagerNav
              label="Pages of the sessions"
              page={page}
              pageSize={pageSize}
              total={sessions.data.total}
              noun="sessions"
              onPage={setPage}
            />
          </>
        )}
      </Stack>
    </Card>
  );
}

function SessionRow({ teamId, session }: { teamId: string; session: TeamSessionSummary }) {
  const state = exportStateLabels[session.exportState];
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/admin/sessions/${teamId}/${session.id}`} size="sm">
          {when(session.startedAt)}
        </Anchor>
        {session.endedAt === null && (
          <Badge ml="xs" size="sm" color="navy.8" variant="filled">
            Running
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{session.phoneNumbers.join(', ') || '–'}</Text>
        {session.externalReference && (
          <Text size="xs" c="gray.7">
            Ref. {session.externalReference}
          </Text>
        )}
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{session.dispatcher ?? '–'}</Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{session.consentReceipts}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          <Badge size="sm" variant="filled" color={state.color}>
            {state.label}
          </Badge>
          {session.legalHold && (
            <Badge size="sm" variant="filled" color="grape.9">
              Legal hold
            </Badge>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
