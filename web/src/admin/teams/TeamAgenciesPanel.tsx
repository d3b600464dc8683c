import type { ManagedTeam, Psap } from '@locus/contract';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, expect } from '../../app/api';
import { failureMessage } from './queries';
import { teamKeys, useTeamPsaps } from './team-queries';

const notice = (message: string) =>
  notifications.show({
    color: 'green',
    message,
    closeButtonProps: { 'aria-label': 'Close notice' },
  });

/** Find agencies (POST /api/v1/psap/search) and add one to the team. */
function AddAgency({ team, current }: { team: ManagedTeam; current: readonly Psap[] }) {
  const [term, setTerm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const search = useMutation({
    mutationFn: async (searchTerm: string) =>
      expect(await api.psap.search({ body: { searchTerm } }), 200),
  });
  const add = useMutation({
    mutationFn: async (psap: Psap) =>
      expect(await api.teams.addPsap({ params: { id: team.id, psapId: psap.id } }), 200),
    onSuccess: (agencies, psap) => {
      queryClient.setQueryData(teamKeys.psaps(team.id), agencies);
      notice(`${psap.name} added`);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = term.trim();
    if (trimmed === '') {
      setError('Enter part of the agency’s name');
      return;
    }
    setError(null);
    search.mutate(trimmed);
  }

  const results = search.data?.filter((psap) => !current.some((own) => own.id === psap.id));
  return (
    <Stack gap="xs">
      <form noValidate onSubmit={submit} role="search" aria-label="Agency search">
        <Group align="flex-start" gap="xs">
          <TextInput
            label="Find an agency"
            placeholder="Part of the agency’s name"
            value={term}
            onChange={(event) => setTerm(event.currentTarget.value)}
            error={error}
            style={{ flex: '1 1 200px' }}
            maxLength={100}
          />
          <Button type="submit" mt={{ base: 0, xs: 25 }} loading={search.isPending}>
            Search
          </Button>
        </Group>
      </form>
      {search.isError && (
        <Alert color="red" role="alert">
          The search failed: {failureMessage(search.error)}
        </Alert>
      )}
      {add.isError && (
        <Alert color="red" role="alert">
          The agency could not be added: {failureMessage(add.error)}
        </Alert>
      )}
      {results && (
        <div aria-live="polite">
          {results.length === 0 ? (
            <Text size="sm">No other agency matches.</Text>
          ) : (
            <Table verticalSpacing={4} aria-label="Agencies found">
              <Table.Tbody>
                {results.map((psap) => (
                  <Table.Tr key={psap.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {psap.name} ({psap.state})
                    </Table.Td>
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        variant="light"
                        loading={add.isPending && add.variables.id === psap.id}
                        onClick={() => add.mutate(psap)}
                        aria-label={`Add ${psap.name}`}
                      >
                        Add
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </div>
      )}
    </Stack>
  );
}

/** The agencies (PSAPs) the team answers for; team admins add and remove them. */
export function TeamAgenciesPanel({ team }: { team: ManagedTeam }) {
  const headingId = useId();
  const agencies = useTeamPsaps(team.id);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async (psap: Psap) =>
      expect(
        await api.teams.removePsaps({
          params: { id: team.id },
          query: { psapIds: String(psap.id) },
        }),
        200,
      ),
    onSuccess: (rest, psap) => {
      queryClient.setQueryData(teamKeys.psaps(team.id), rest);
      notice(`${psap.name} removed`);
    },
  });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          Agencies
        </Title>
        <Text size="sm" c="dimmed">
          The public safety answering points (PSAPs) this team dispatches for.
        </Text>
        {agencies.isPending && <Loader size="sm" aria-label="Loading agencies" />}
        {agencies.isError && (
          <Alert color="red" role="alert">
            The agencies could not be loaded: {failureMessage(agencies.error)}
          </Alert>
        )}
        {remove.isError && (
          <Alert color="red" role="alert">
            The agency could not be removed: {failureMessage(remove.error)}
          </Alert>
        )}
        {agencies.data?.length === 0 && <Text>No agencies yet.</Text>}
        {agencies.data && agencies.data.length > 0 && (
          <Table verticalSpacing={4} aria-label={`Agencies of ${team.teamName}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Agency</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {agencies.data.map((psap) => (
                <Table.Tr key={psap.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{psap.name}</Table.Td>
                  <Table.Td>{psap.state}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      loading={remove.isPending && remove.variables.id === psap.id}
                      onClick={() => remove.mutate(psap)}
                      aria-label={`Remove ${psap.name}`}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <AddAgency team={team} current={agencies.data ?? []} />
      </Stack>
    </Card>
  );
}
