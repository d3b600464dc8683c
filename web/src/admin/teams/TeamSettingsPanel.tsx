import {
  levelOf,
  levelsOf,
  TeamName,
  teamLevelLabels,
  type ManagedTeam,
  type PatchTeamBody,
  type TeamLevel,
} from '@locus/contract';
import {
  Alert,
  Button,
  Card,
  Group,
  List,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, expect } from '../../app/api';
import { useSession } from '../../app/session';
import { LevelChoice } from './LevelChoice';
import { failureMessage } from './queries';
import {
  parseRetention,
  RetentionInput,
  retentionValueOf,
  ShortenRetentionModal,
  shortensRetention,
  type RetentionValue,
} from './RetentionInput';
import { teamKeys, useTeamChanged } from './team-queries';
import { ActiveBadge, LevelBadges } from './TeamsTable';
import { TimeZoneSelect } from './TimeZoneSelect';

function useSaveTeam(team: ManagedTeam, savedMessage: string) {
  const queryClient = useQueryClient();
  const { teams } = useSession();
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: async (body: PatchTeamBody) =>
      expect(await api.teams.update({ params: { id: team.id }, body }), 200),
    onSuccess: async (saved) => {
      queryClient.setQueryData(teamKeys.team(team.id), saved);
      notifications.show({
        color: 'green',
        message: savedMessage,
        closeButtonProps: { 'aria-label': 'Close notice' },
      });
      await changed(saved, teams);
    },
  });
}

/** Team admins: the one setting that is the team's own, its time zone. */
function TimeZoneForm({ team }: { team: ManagedTeam }) {
  const [timeZone, setTimeZone] = useState(team.timeZone);
  const save = useSaveTeam(team, 'Time zone saved');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate({ timeZone });
  }

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        <TimeZoneSelect value={timeZone} onChange={setTimeZone} />
        {save.isError && (
          <Alert color="red" role="alert">
            {failureMessage(save.error)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save time zone
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Team admins: how long the team keeps its history, its agency's records policy (issue 15). */
function RetentionForm({ team }: { team: ManagedTeam }) {
  const [retention, setRetention] = useState<RetentionValue>(retentionValueOf(team.retentionDays));
  const parsed = parseRetention(retention);
  const save = useSaveTeam(team, 'Retention saved');
  const [confirming, setConfirming] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!parsed.ok || save.isPending) return;
    if (shortensRetention(team.retentionDays, parsed.days)) setConfirming(true);
    else save.mutate({ retentionDays: parsed.days });
  }

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        <RetentionInput
          value={retention}
          onChange={setRetention}
          error={parsed.ok ? null : parsed.error}
        />
        {save.isError && (
          <Alert color="red" role="alert">
            {failureMessage(save.error)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save retention
          </Button>
        </Group>
      </Stack>
      {confirming && parsed.ok && (
        <ShortenRetentionModal
          days={parsed.days}
          certain={team.retentionDays !== null && parsed.days !== null}
          pending={save.isPending}
          error={save.error}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            save.mutate({ retentionDays: parsed.days }, { onSuccess: () => setConfirming(false) })
          }
        />
      )}
    </form>
  );
}

/**
 * What a team admin sees: the settings only Locus changes, as text, then the time zone and the
 * retention.
 */
function ReadOnlySettings({ team }: { team: ManagedTeam }) {
  return (
    <Stack gap="xs">
      <List listStyleType="none" spacing={6}>
        <List.Item>
          <Text span fw={600}>
            Name:
          </Text>{' '}
          {team.teamName}
        </List.Item>
        <List.Item>
          <Group gap={6}>
            <Text span fw={600}>
              Status:
            </Text>
            <ActiveBadge isActive={team.isActive} />
          </Group>
        </List.Item>
        <List.Item>
          <Group gap={6}>
            <Text span fw={600}>
              Permission level:
            </Text>
            <Text span>{teamLevelLabels[levelOf(team.permissionLevels)]}</Text>
            <LevelBadges team={team} />
          </Group>
        </List.Item>
      </List>
      <Text size="sm" c="dimmed">
        Only Locus can rename your team, change its level or deactivate it. Contact support to
        change them.
      </Text>
      <TimeZoneForm key={team.timeZone} team={team} />
      <RetentionForm key={String(team.retentionDays)} team={team} />
    </Stack>
  );
}

/** Platform admins: rename, (de)activate and set the level, time zone and retention of any team. */
function SettingsForm({ team }: { team: ManagedTeam }) {
  const [name, setName] = useState(team.teamName);
  const [isActive, setActive] = useState(team.isActive);
  const [level, setLevel] = useState<TeamLevel>(levelOf(team.permissionLevels));
  const [timeZone, setTimeZone] = useState(team.timeZone);
  const [retention, setRetention] = useState<RetentionValue>(retentionValueOf(team.retentionDays));
  const parsedName = TeamName.safeParse(name);
  const nameError = parsedName.success ? null : (parsedName.error.issues[0]?.message ?? null);
  const parsedRetention = parseRetention(retention);
  const save = useSaveTeam(team, 'Team settings saved');

  const [confirming, setConfirming] = useState(false);
  const saveSettings = () =>
    parsedRetention.ok &&
    save.mutate(
      {
        teamName: name.trim(),
        isActive,
        permissionLevels: levelsOf(level),
        timeZone,
        retentionDays: parsedRetention.days,
      },
      { onSuccess: () => setConfirming(false) },
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (nameError !== null || !parsedRetention.ok || save.isPending) return;
    if (shortensRetention(team.retentionDays, parsedRetention.days)) setConfirming(true);
    else saveSettings();
  }

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        <TextInput
          label="Team name"
          withAsterisk
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={nameError}
          maw={420}
        />
        <Switch
          label="Active"
          description="Members of an inactive team cannot locate or open its call lists."
          checked={isActive}
          disabled={team.isPlatformOwner}
          onChange={(event) => setActive(event.currentTarget.checked)}
        />
        <LevelChoice value={level} onChange={setLevel} />
        <TimeZoneSelect value={timeZone} onChange={setTimeZone} />
        <RetentionInput
          value={retention}
          onChange={setRetention}
          error={parsedRetention.ok ? null : parsedRetention.error}
        />
        {save.isError && (
          <Alert color="red" role="alert">
            {failureMessage(save.error)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save settings
          </Button>
        </Group>
      </Stack>
      {confirming && parsedRetention.ok && (
        <ShortenRetentionModal
          days={parsedRetention.days}
          certain={team.retentionDays !== null && parsedRetention.days !== null}
          pending={save.isPending}
          error={save.error}
          onClose={() => setConfirming(false)}
          onConfirm={saveSettings}
        />
      )}
    </form>
  );
}

/**
 * Issue 19: whether dashboards record the caller's live video as evidence. Saved as it is
 * switched, by a team admin or a platform admin (the team's own records policy, like retention).
 */
function RecordMediaSwitch({ team }: { team: ManagedTeam }) {
  const save = useSaveTeam(team, 'Video recording setting saved');
  return (
    <Stack gap={4}>
      <Switch
        label="Record video as evidence"
        description="Live video from callers is recorded and kept with the session's photos, exported and deleted with its history."
        checked={team.recordMedia}
        // Not disabled while saving: a disabled switch drops the keyboard focus. A second press
        // meanwhile is ignored instead, and announced as busy.
        aria-busy={save.isPending}
        onChange={(event) => {
          if (!save.isPending) save.mutate({ recordMedia: event.currentTarget.checked });
        }}
      />
      {save.isError && (
        <Alert color="red" role="alert">
          {failureMessage(save.error)}
        </Alert>
      )}
    </Stack>
  );
}

/** The team's settings: editable by platform admins, shown as text to team admins. */
export function TeamSettingsPanel({
  team,
  platformAdmin,
}: {
  team: ManagedTeam;
  platformAdmin: boolean;
}) {
  const headingId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          Settings
        </Title>
        {platformAdmin ? (
          // Keyed by the saved values, so that a save elsewhere resets the form to them.
          <SettingsForm
            key={`${team.teamName}|${team.isActive}|${team.permissionLevels.join()}|${team.timeZone}|${team.retentionDays}`}
            team={team}
          />
        ) : (
          <ReadOnlySettings team={team} />
        )}
        <RecordMediaSwitch team={team} />
      </Stack>
    </Card>
  );
}
