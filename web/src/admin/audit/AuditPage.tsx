import { PagerNav } from '../PagerNav';
import { auditActions, type AuditAction, type AuditFilters, type AuditRow } from '@locus/contract';
import {
  Alert,
  Button,
  Card,
  Container,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ApiError, expect } from '../../app/api';
import { sessionStore, useSession } from '../../app/session';

const pageSize = 25;

/** Actions the generated label would name badly. */
const actionLabels: Partial<Record<AuditAction, string>> = {
  'retention.purged': 'Old history deleted (retention)',
};

/** Actions Locus itself takes on a schedule: nobody acted, and nobody was meant to sign in. */
const scheduledActions: ReadonlySet<string> = new Set<AuditAction>(['retention.purged']);

/** "locate.requested" → "Locate requested": how the trail names an action on screen. */
export function actionLabel(action: string): string {
  const label = actionLabels[action as AuditAction];
  if (label !== undefined) return label;
  const words = action.replace(/[.-]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

function failureMessage(error: unknown): string {
  return error instanceof ApiError && error.body?.message
    ? error.body.message
    : 'Something went wrong with your request. Please try again.';
}

/** The query string of the filters (empty ones left out), for the list and the download. */
function filterQuery(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters))
    if (typeof value === 'string' && value !== '') params.set(key, value);
  return params;
}

/**
 * Downloads the filtered trail as CSV. A plain link cannot carry the bearer token, so the file
 * is fetched with it and saved from a Blob.
 */
async function downloadCsv(filters: AuditFilters): Promise<void> {
  const { token } = sessionStore.get();
  const response = await fetch(`/api/v1/audit/export.csv?${filterQuery(filters).toString()}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `The download failed (${response.status}).`);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'locus-audit.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: the browser has the Blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "12 sessions ended over 30 days ago (2 kept under legal hold)": a purge row's subject. */
function retentionSummary(detail: Record<string, unknown>): string | null {
  const { sessions, retentionDays, heldSessionsKept } = detail;
  if (typeof sessions !== 'number' || typeof retentionDays !== 'number') return null;
  const held = typeof heldSessionsKept === 'number' && heldSessionsKept > 0;
  return (
    `${sessions} ${sessions === 1 ? 'session' : 'sessions'} ended over ${retentionDays} days ago` +
    (held ? ` (${heldSessionsKept} kept under legal hold)` : '')
  );
}

/** A user's name (with the id in a tooltip) when the subject is a user; else the subject. */
function Subject({ row }: { row: AuditRow }) {
  const summary = row.action === 'retention.purged' ? retentionSummary(row.detail) : null;
  if (summary !== null)
    return (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} title={row.subject}>
        {summary}
      </Text>
    );
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }} title={row.subject}>
      {row.subjectUser ? row.subjectUser.name : row.subject}
    </Text>
  );
}

/**
 * /admin/audit: the audit trail of the teams the user administers (every team for platform
 * admins), filtered by user, action and dates, a page at a time, and as a CSV download.
 */
export function AuditPage() {
  const headingId = useId();
  const { user, teams: myTeams } = useSession();
  // Platform admins read every team's trail, and may narrow it to one team.
  const platformAdmin =
    user !== null && user.isAdmin && myTeams.some((team) => team.isPlatformOwner);
  const [teamId, setTeamId] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [action, setAction] = useState<AuditAction | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const filters: AuditFilters = {
    ...(teamId ? { teamId } : {}),
    ...(userId ? { userId } : {}),
    ...(action ? { action } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const actors = useQuery({
    queryKey: ['audit', 'actors'],
    queryFn: async () => expect(await api.audit.actors(), 200),
  });
  const teams = useQuery({
    queryKey: ['audit', 'teams'],
    queryFn: async () => expect(await api.verification.teams(), 200),
    enabled: platformAdmin,
  });
  const trail = useQuery({
    queryKey: ['audit', 'trail', filters, page],
    queryFn: async () =>
      expect(await api.audit.list({ query: { ...filters, page, pageSize } }), 200),
    placeholderData: (previous) => previous,
  });
  const total = trail.data?.total ?? 0;
  const badDates = from !== '' && to !== '' && from > to;

  async function download() {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadCsv(filters);
    } catch (error) {
      setDownloadError(error instanceof Error ? error.message : 'The download failed.');
    } finally {
      setDownloading(false);
    }
  }

  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Title order={1} fz={26}>
          Audit trail
        </Title>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap">
              <Title order={2} size="h3" id={headingId}>
                Who did what
              </Title>
              <Button
                leftSection={<IconDownload size={16} aria-hidden />}
                onClick={() => void download()}
                loading={downloading}
                disabled={badDates}
              >
                Download CSV
              </Button>
            </Group>
            <Group align="flex-start" gap="sm" wrap="wrap">
              {platformAdmin && (
                <Select
                  label="Team"
                  placeholder="Every team"
                  searchable
                  clearable
                  data={(teams.data ?? []).map((team) => ({
                    value: team.id,
                    label: team.teamName,
                  }))}
                  value={teamId}
                  onChange={changed(setTeamId)}
                  nothingFoundMessage="No team matches"
                  miw={200}
                  style={{ flex: '1 1 200px' }}
                />
              )}
              <Select
                label="User"
                placeholder="Everyone"
                searchable
                clearable
                data={(actors.data ?? []).map((actor) => ({
                  value: actor.id,
                  label: `${actor.name} (${actor.email})`,
                }))}
                value={userId}
                onChange={changed(setUserId)}
                nothingFoundMessage="Nobody matches"
                miw={200}
                style={{ flex: '1 1 220px' }}
              />
              <Select
                label="Action"
                placeholder="Every action"
                searchable
                clearable
                data={auditActions.map((value) => ({ value, label: actionLabel(value) }))}
                value={action}
                onChange={changed((value: string | null) => setAction(value as AuditAction | null))}
                miw={200}
                style={{ flex: '1 1 200px' }}
              />
              <TextInput
                type="date"
                label="From"
                value={from}
                onChange={(event) => changed(setFrom)(event.currentTarget.value)}
                style={{ flex: '1 1 140px' }}
              />
              <TextInput
                type="date"
                label="To"
                value={to}
                onChange={(event) => changed(setTo)(event.currentTarget.value)}
                error={badDates ? 'The end is before the start' : null}
                style={{ flex: '1 1 140px' }}
              />
            </Group>
            {downloadError && (
              <Alert color="red" role="alert">
                {downloadError}
              </Alert>
            )}
            {trail.isPending && <Loader size="sm" aria-label="Loading the audit trail" />}
            {trail.isError && (
              <Alert color="red" role="alert">
                The audit trail could not be loaded: {failureMessage(trail.error)}
              </Alert>
            )}
            {trail.data && trail.data.items.length === 0 && (
              <Text>Nothing matches these filters.</Text>
            )}
            {trail.data && trail.data.items.length > 0 && (
              <Table.ScrollContainer minWidth={0}>
                <Table verticalSpacing="xs" aria-labelledby={headingId}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>When</Table.Th>
                      <Table.Th>Who</Table.Th>
                      <Table.Th>Action</Table.Th>
                      <Table.Th visibleFrom="sm">Team</Table.Th>
                      <Table.Th visibleFrom="sm">Subject</Table.Th>
                      <Table.Th visibleFrom="md">IP</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {trail.data.items.map((row) => (
                      <Table.Tr key={row.id}>
                        <Table.Td>
                          <Text size="sm">{when(row.at)}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                            {row.actor
                              ? row.actor.name
                              : scheduledActions.has(row.action)
                                ? 'Locus (scheduled)'
                                : 'Nobody signed in'}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{actionLabel(row.action)}</Text>
                        </Table.Td>
                        <Table.Td visibleFrom="sm">
                          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                            {row.teamName ?? '—'}
                          </Text>
                        </Table.Td>
                        <Table.Td visibleFrom="sm">
                          <Subject row={row} />
                        </Table.Td>
                        <Table.Td visibleFrom="md">
                          <Text size="sm">{row.ip ?? '—'}</Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <PagerNav
              label="Pages of the audit trail"
              page={page}
              pageSize={pageSize}
              total={total}
              noun="rows"
              onPage={setPage}
            />
          </Stack>
        </Card>
      </Stack>
    </Container>
  );
}
