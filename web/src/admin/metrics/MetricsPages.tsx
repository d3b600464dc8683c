import '@mantine/charts/styles.css';
import './metrics.css';
import type { Team } from '@locus/contract';
import { Alert, Container, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../app/api';
import { permissionsOf } from '../../app/permissions';
import { useSession } from '../../app/session';
import { PlatformMetrics } from './PlatformMetrics';
import { failureMessage, useCaseTotals, useTeam, useTeamChoices } from './queries';
import { RangePicker, useMetricsRange } from './RangePicker';
import type { DateRange } from './range';
import { TeamMetrics } from './TeamMetrics';

const isEnterprise = (team: { permissionLevels: readonly string[] }) =>
  team.permissionLevels.includes('enterprise');

/** The teams whose metrics the user reads: enterprise teams they administer (SPEC.md §5, §6). */
function useMetricsAccess(): { platformAdmin: boolean; own: Team[] } {
  const { user, teams } = useSession();
  return {
    platformAdmin: permissionsOf(user, teams).platformAdmin,
    own: teams.filter((team) => team.isActive && team.role === 'admin' && isEnterprise(team)),
  };
}

function MetricsFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size="xl" py="md" className="locus-metrics-page">
      <Stack gap="md">
        <Title order={1} fz={26}>
          {title}
        </Title>
        {children}
      </Stack>
    </Container>
  );
}

/** Which team: every enterprise team for a platform admin, else the user's own. */
function TeamPicker({ value, own }: { value: { id: string; name: string } | null; own: Team[] }) {
  const navigate = useNavigate();
  const { platformAdmin } = useMetricsAccess();
  const { search } = useMetricsRange();
  const [typed, setTyped] = useState('');
  const [searchFor] = useDebouncedValue(typed, 250);
  const choices = useTeamChoices(searchFor === value?.name ? '' : searchFor, platformAdmin);
  const teams = platformAdmin
    ? (choices.data?.items ?? []).filter(isEnterprise).map((team) => ({
        value: team.id,
        label: team.teamName,
      }))
    : own.map((team) => ({ value: team.id, label: team.teamName }));
  // The team shown is always a choice, whatever the search found.
  if (value && !teams.some((team) => team.value === value.id))
    teams.unshift({ value: value.id, label: value.name });
  if (!platformAdmin && own.length < 2) return null;
  return (
    <Select
      className="locus-no-print"
      label="Team"
      description={platformAdmin ? 'Enterprise teams: the others have no metrics.' : undefined}
      placeholder="Pick a team"
      searchable
      data={teams}
      value={value?.id ?? null}
      onSearchChange={setTyped}
      onChange={(id) => {
        if (id && id !== value?.id) void navigate(`/admin/metrics/${id}${search}`);
      }}
      nothingFoundMessage={choices.isPending ? 'Loading teams…' : 'No enterprise team matches'}
      maw={420}
      error={choices.isError ? failureMessage(choices.error) : null}
    />
  );
}

/** The range picker and, once it holds a range the API takes, what it is cut in. */
function RangeSection({ teamId }: { teamId: string | null }) {
  const { preset, range, problem, choose } = useMetricsRange();
  return (
    <Stack gap="xs">
      <RangePicker preset={preset} range={range} onChange={choose} />
      {problem === null && teamId !== null && <RangeLine teamId={teamId} range={range} />}
      {problem !== null && (
        <Alert color="yellow" role="alert">
          The range in the address is not one Locus can show: {problem.message.toLowerCase()}. Pick
          a preset or other dates.
        </Alert>
      )}
    </Stack>
  );
}

/** Printed too: the page says which days it covers, and in which zone. */
function RangeLine({ teamId, range }: { teamId: string; range: DateRange }) {
  const totals = useCaseTotals({ teamId, ...range });
  return (
    <Text size="sm" data-testid="metrics-range">
      From {range.from} to {range.to}, both included
      {totals.data ? `; days in ${totals.data.timeZone}` : ''}.
    </Text>
  );
}

function OneTeam({ team }: { team: { id: string; name: string } }) {
  const { range, problem } = useMetricsRange();
  if (problem !== null) return null;
  return <TeamMetrics params={{ teamId: team.id, ...range }} teamName={team.name} />;
}

/**
 * /admin/metrics (TEAM | USER METRICS): a team admin sees their enterprise team; a platform admin
 * picks one, which opens /admin/metrics/{id}.
 */
export function MetricsPage() {
  const { platformAdmin, own } = useMetricsAccess();
  const title = 'Team and user metrics';
  if (platformAdmin) {
    return (
      <MetricsFrame title={title}>
        <TeamPicker value={null} own={own} />
        <Text>Pick a team to see its metrics.</Text>
      </MetricsFrame>
    );
  }
  const team = own[0];
  if (!team) {
    return (
      <MetricsFrame title={title}>
        <Alert color="yellow" role="alert" title="No metrics for your teams">
          Metrics are part of the enterprise level, and you are not an admin of an enterprise team.
        </Alert>
      </MetricsFrame>
    );
  }
  const shown = { id: team.id, name: team.teamName };
  return (
    <MetricsFrame title={`${title}: ${team.teamName}`}>
      <TeamPicker value={shown} own={own} />
      <RangeSection teamId={team.id} />
      <OneTeam team={shown} />
    </MetricsFrame>
  );
}

/** /admin/metrics/{id}: one team's metrics, the same cards. */
export function TeamMetricsPage() {
  const { id = '' } = useParams();
  const { own } = useMetricsAccess();
  const ownTeam = own.find((team) => team.id === id);
  // A team that is not the user's own (a platform admin's pick): its name and level from the API.
  const managed = useTeam(id, ownTeam === undefined);
  const title = 'Team and user metrics';
  if (ownTeam === undefined) {
    if (managed.isPending)
      return (
        <MetricsFrame title={title}>
          <Loader size="sm" aria-label="Loading the team" />
        </MetricsFrame>
      );
    if (managed.isError) {
      const missing = managed.error instanceof ApiError && managed.error.status === 404;
      return (
        <MetricsFrame title={title}>
          <Alert color="red" role="alert" title={missing ? 'Team not found' : undefined}>
            {missing
              ? 'There is no such team, or it is not one of yours.'
              : failureMessage(managed.error)}
          </Alert>
        </MetricsFrame>
      );
    }
  }
  const team = ownTeam
    ? { id: ownTeam.id, name: ownTeam.teamName, enterprise: true }
    : { id, name: managed.data!.teamName, enterprise: isEnterprise(managed.data!) };
  return (
    <MetricsFrame title={`${title}: ${team.name}`}>
      <TeamPicker value={team} own={own} />
      {team.enterprise ? (
        <>
          <RangeSection teamId={team.id} />
          <OneTeam team={team} />
        </>
      ) : (
        <Alert color="yellow" role="alert" title="No metrics for this team">
          {team.name} does not have the enterprise level, which metrics are part of.
        </Alert>
      )}
    </MetricsFrame>
  );
}

/** /admin/platform-metrics (the platform owner's company only). */
export function PlatformMetricsPage() {
  const { preset, range, problem, choose } = useMetricsRange();
  return (
    <MetricsFrame title="Platform metrics">
      <Stack gap="xs">
        <RangePicker preset={preset} range={range} onChange={choose} />
        {problem === null ? (
          <Text size="sm" data-testid="metrics-range">
            From {range.from} to {range.to}, both included; days and months in UTC.
          </Text>
        ) : (
          <Alert color="yellow" role="alert">
            The range in the address is not one Locus can show: {problem.message.toLowerCase()}.
            Pick a preset or other dates.
          </Alert>
        )}
      </Stack>
      {problem === null && <PlatformMetrics range={range} />}
    </MetricsFrame>
  );
}
