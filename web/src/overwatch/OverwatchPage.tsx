import './overwatch.css';
import { type WatchAlert } from '@locus/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Progress,
  Select,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError, expect } from '../app/api';
import { useSession } from '../app/session';
import { useNow } from '../dashboard/use-now';
import { usePublicConfig } from '../public-site/public-config';
import { AlertList } from './AlertList';
import { PhoneDetails } from './PhoneDetails';
import { PhoneList } from './PhoneList';
import { viewPhone } from './phone-view';
import { Timeline } from './Timeline';
import { useGroups, useWatch } from './useWatch';
import { WatchMap } from './WatchMap';

/**
 * SPEC.md §2 and issue 14: `/overwatch` checks the premiere level with the server
 * (`checkPermissionLevel`) for the user's premiere team, as the route guard did from the teams.
 */
function usePremiereCheck() {
  const { teams } = useSession();
  const team = teams.find((t) => t.isActive && t.permissionLevels.includes('premiere'));
  return useQuery({
    queryKey: ['overwatch', 'premiere', team?.teamName],
    enabled: team !== undefined,
    queryFn: async () =>
      expect(await api.teams.checkPremiere({ params: { teamName: team!.teamName } }), 200),
  });
}

export function OverwatchPage() {
  const premiere = usePremiereCheck();
  if (premiere.data && !premiere.data.hasPermission)
    return (
      <Alert color="red" title="Overwatch is not available to your team" m="md">
        Overwatch needs your team to have the premiere level. Ask your agency administrator or Locus
        sales.{' '}
        <Anchor component={Link} to="/dashboard" underline="always">
          Back to Map
        </Anchor>
      </Alert>
    );
  return <Watch />;
}

function Watch() {
  const [params] = useSearchParams();
  const groups = useGroups();
  const [groupId, setGroupId] = useState<string | null>(params.get('group'));
  const [selected, setSelected] = useState<string | null>(null);
  const [focus, setFocus] = useState<{ callerId: string; at: number } | null>(null);
  const [showTrails, setShowTrails] = useState(true);
  const [at, setAt] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const tiles = usePublicConfig().data?.map;

  // A crossing or a jump is announced (and listed under Alerts, newest first); no toast, which
  // would cover the map where the phones are.
  const onAlert = useCallback((alert: WatchAlert, number: string) => {
    setAnnouncement(`${number}: ${alert.message}`);
  }, []);
  const watch = useWatch(onAlert);
  const now = useNow(1000);
  const { store, version, settings, target } = watch;

  const labels = useMemo(
    () => new Map((watch.group?.members ?? []).map((m) => [m.phoneNumber, m.label])),
    [watch.group],
  );
  const views = useMemo(
    () =>
      [...store.phones.values()].map((phone) => {
        const number = store.numbers.get(phone.callerId) ?? '';
        return viewPhone(phone, number, labels.get(number) ?? null, settings, now, at);
      }),
    // `version` is the store's change counter: the phones are read from the store.
    [store, version, labels, settings, now, at],
  );
  // From the watch's start, or from an earlier fix (one that waited on a phone, or the lookup's).
  const timelineStart = useMemo(() => {
    let earliest = target?.startedAt ?? now;
    for (const phone of store.phones.values())
      if (phone.fixes[0] && phone.fixes[0].capturedAt < earliest)
        earliest = phone.fixes[0].capturedAt;
    return earliest;
    // `version` is the store's change counter.
  }, [store, version, target, now]);
  const select = (callerId: string) => {
    setSelected(callerId);
    setFocus({ callerId, at: Date.now() });
  };

  const group = groups.data?.find((g) => g.id === groupId);
  const startWatch = () => {
    if (groupId) watch.start.mutate({ groupId, numbers: null });
  };
  // Numbers of the group not yet in the watch: a start cut short (an error, a reload), or
  // numbers added to the group since. Sending them texts nobody twice.
  const inWatch = new Set(store.numbers.values());
  const missing =
    target && watch.group && !watch.start.isPending && !watch.ended
      ? watch.group.members.filter((m) => !m.optedOut && !inWatch.has(m.phoneNumber))
      : [];

  if (watch.loadingActive) return <Loader m="md" aria-label="Loading the running watch" />;

  return (
    <Stack gap="sm" className="locus-overwatch">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={1} fz={22}>
          {target ? (watch.group?.name ?? 'Watch') : 'Overwatch'}
        </Title>
        <Group gap="sm" wrap="wrap">
          {!target && (
            <>
              <Select
                label="Group"
                placeholder={groups.isPending ? 'Loading groups…' : 'Choose a group'}
                data={(groups.data ?? []).map((g) => ({
                  value: g.id,
                  label: `${g.name} (${g.memberCount - g.optedOutCount} numbers)`,
                }))}
                value={groupId}
                onChange={setGroupId}
                w={300}
              />
              <Button
                mt={24}
                leftSection={<IconPlayerPlay size={16} aria-hidden />}
                disabled={!groupId || watch.start.isPending}
                loading={watch.start.isPending}
                onClick={() => void startWatch()}
              >
                Start watch
              </Button>
            </>
          )}
          {target && !watch.ended && (
            <>
              <Badge
                size="lg"
                variant="light"
                color={watch.connection === 'Connected' ? 'green' : 'orange'}
              >
                {watch.connection}
              </Badge>
              <Switch
                label="Show trails"
                checked={showTrails}
                onChange={(event) => setShowTrails(event.currentTarget.checked)}
              />
              <Button
                color="red"
                variant="light"
                leftSection={<IconPlayerStop size={16} aria-hidden />}
                loading={watch.end.isPending}
                onClick={() => watch.end.mutate()}
              >
                End watch
              </Button>
            </>
          )}
        </Group>
      </Group>
      {groups.data?.length === 0 && !target && (
        <Text>
          Your team has no Overwatch groups yet.{' '}
          <Anchor component={Link} to="/admin/overwatch" underline="always">
            Create one in Admin → Overwatch
          </Anchor>
          .
        </Text>
      )}
      {group && !target && (
        <Text size="sm" c="dimmed">
          {group.memberCount} numbers, {group.optedOutCount} opted out (never texted),{' '}
          {group.geofenceCount} geofences. Each number is looked up first, then texted a link.
        </Text>
      )}
      {watch.progress && watch.progress.done < watch.progress.total && (
        <Stack gap={4}>
          <Text size="sm" id="watch-progress-label">
            Locating {watch.progress.done} of {watch.progress.total} numbers…
            {watch.progress.waitingUntil !== undefined &&
              ` The text limit is reached; the next numbers are texted at ${new Date(
                watch.progress.waitingUntil,
              ).toLocaleTimeString([], { hour12: false })}.`}
          </Text>
          <Progress
            value={(100 * watch.progress.done) / watch.progress.total}
            aria-labelledby="watch-progress-label"
          />
        </Stack>
      )}
      {watch.progress &&
        watch.progress.done === watch.progress.total &&
        watch.progress.skipped.length > 0 && (
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title="Not texted">
            {watch.progress.skipped.join(', ')}
          </Alert>
        )}
      {missing.length > 0 && (
        <Alert
          color="yellow"
          title={`${missing.length} numbers of the group are not in this watch`}
        >
          <Button
            size="xs"
            mt={4}
            onClick={() =>
              watch.start.mutate({
                groupId: watch.group!.id,
                numbers: missing.map((m) => m.phoneNumber),
              })
            }
          >
            Locate them now
          </Button>
        </Alert>
      )}
      {watch.groupError && (
        <Alert color="red" title="The group's settings could not be read">
          Geofences and thresholds are unknown until it loads; reload the page to try again.
        </Alert>
      )}
      {watch.start.error && (
        <Alert color="red" title="The watch could not start">
          {watch.start.error instanceof ApiError ? watch.start.error.message : 'Try again.'}
        </Alert>
      )}
      {watch.ended && (
        <Alert color="blue" title="This watch has ended">
          The links are closed.{' '}
          <Anchor href="/overwatch" underline="always">
            Start another watch
          </Anchor>
        </Alert>
      )}
      <div aria-live="polite" className="locus-visually-hidden" data-testid="overwatch-announcer">
        {announcement}
      </div>
      {target && (
        <div className="locus-overwatch-body">
          <div className="locus-overwatch-map">
            <WatchMap
              views={views}
              store={store}
              settings={settings}
              moment={at ?? now}
              at={at}
              showTrails={showTrails}
              selected={selected}
              focus={focus}
              onSelect={select}
              tiles={tiles}
            />
            <Timeline start={timelineStart} now={now} at={at} onChange={setAt} />
          </div>
          <aside className="locus-overwatch-side" aria-label="Phones">
            <AlertList
              alerts={store.alerts}
              numbers={store.numbers}
              version={version}
              onSelect={select}
            />
            {selected ? (
              <PhoneDetails
                key={selected}
                view={views.find((view) => view.callerId === selected)}
                log={store.log.filter((entry) => entry.callerId === selected)}
                settings={settings}
                moment={at ?? now}
                sessionId={target.sessionId}
                language={watch.group?.language ?? 'en'}
                onClose={() => setSelected(null)}
              />
            ) : null}
            <PhoneList views={views} selected={selected} onSelect={select} />
          </aside>
        </div>
      )}
    </Stack>
  );
}
