import {
  maxNumbersPerRequest,
  type OverwatchGroup,
  type WatchAlert,
  type WatchSettings,
} from '@locus/contract';
import { selectStatusText } from '@locus/machines';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { api, expect } from '../app/api';
import { DispatcherSocket } from '../dashboard/dispatcher-socket';
import { WatchStore } from './watch-store';

export interface WatchTarget {
  sessionId: string;
  token: string;
  groupId: string | null;
  startedAt: number;
}

/** How far a watch being started has got: numbers located or texted so far, of how many. */
export interface StartProgress {
  done: number;
  total: number;
  /** Numbers not texted: invalid, untextable or opted out. */
  skipped: string[];
  /** The team's or the user's text allowance is spent until then (epoch ms): the rest waits. */
  waitingUntil?: number;
}

/** Longest wait for the text allowance before giving up (the window is 10 minutes by default). */
const MAX_ALLOWANCE_WAIT_MS = 15 * 60_000;
/** A batch refused this many times in a row is larger than the whole allowance: give up. */
const MAX_ALLOWANCE_WAITS = 3;

type StartResponse = Awaited<ReturnType<typeof api.overwatch.startOverwatchStream>>;

/**
 * One batch of a watch. When the text limits are reached (429 with Retry-After), the batch waits
 * for the allowance and is sent again: a group larger than the allowance is located in full,
 * the progress saying why it paused. A batch sent twice texts nobody twice (the server skips
 * numbers already texted or located in the watch).
 */
async function startBatch(
  groupId: string,
  phoneNumbers: string[],
  sessionId: string | null,
  onWait: (until: number) => void,
) {
  for (let waits = 0; ; waits += 1) {
    const response: StartResponse = await api.overwatch.startOverwatchStream({
      body: { groupId, phoneNumbers, ...(sessionId ? { connectionRequestUuid: sessionId } : {}) },
    });
    const seconds = Number(response.headers.get('retry-after'));
    const waitMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 60_000;
    if (response.status !== 429 || waits >= MAX_ALLOWANCE_WAITS || waitMs > MAX_ALLOWANCE_WAIT_MS)
      return expect(response, 200);
    onWait(Date.now() + waitMs);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

export const defaultWatchSettings: WatchSettings = {
  staleAfterMs: 120_000,
  speedMps: 1.5,
  maxSpeedMps: 12,
  geofences: [],
};

export function settingsOf(group: OverwatchGroup | undefined): WatchSettings {
  if (!group) return defaultWatchSettings;
  return {
    staleAfterMs: group.staleAfterSeconds * 1000,
    speedMps: group.speedMps,
    maxSpeedMps: group.maxSpeedMps,
    geofences: group.geofences.map((fence) => ({
      id: fence.id,
      name: fence.name,
      polygon: fence.polygon,
    })),
  };
}

export function useGroups() {
  return useQuery({
    queryKey: ['overwatch', 'groups'],
    queryFn: async () => expect(await api.overwatch.groups({ query: { archived: 'false' } }), 200),
  });
}

export function useGroup(id: string | null) {
  return useQuery({
    queryKey: ['overwatch', 'group', id],
    enabled: id !== null,
    queryFn: async () => expect(await api.overwatch.group({ params: { id: id! } }), 200),
  });
}

/**
 * The running watch: reopened after a reload (`active-watch`), started from a group in batches
 * of `maxNumbersPerRequest`, or ended. Its frames feed one `WatchStore`.
 */
export function useWatch(onAlert: (alert: WatchAlert, number: string) => void) {
  const [socket] = useState(() => new DispatcherSocket());
  const [store] = useState(() => new WatchStore(defaultWatchSettings));
  const [target, setTarget] = useState<WatchTarget | null>(null);
  const [progress, setProgress] = useState<StartProgress | null>(null);
  const [ended, setEnded] = useState(false);
  const group = useGroup(target?.groupId ?? null);
  const settings = useMemo(() => settingsOf(group.data), [group.data]);
  store.setSettings(settings);

  const active = useQuery({
    queryKey: ['overwatch', 'active-watch'],
    queryFn: async () => expect(await api.overwatch.activeWatch(), 200),
    // Read on every visit: a watch started or ended since must never be shown otherwise.
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
  });
  useEffect(() => {
    const watch = active.data?.watch;
    if (!watch || target) return;
    store.addCallers(watch.callers);
    setTarget({
      sessionId: watch.uuid,
      token: watch.token,
      groupId: watch.groupId,
      startedAt: Date.parse(watch.startedAt),
    });
  }, [active.data, target, store]);

  // The group's geofences and thresholds must be known before the history is replayed, or the
  // crossings it holds would be judged without them.
  const ready = target !== null && (target.groupId === null || group.data !== undefined);
  useEffect(() => {
    if (!ready || !target) return;
    const stop = socket.listen({
      onSessionEvent: (frame, origin) => {
        const alerts = store.apply(
          frame.event,
          frame.data as unknown as Record<string, unknown>,
          origin.fromHistory,
        );
        if (!origin.fromHistory)
          for (const alert of alerts) onAlert(alert, store.numbers.get(alert.callerId) ?? '');
      },
      onClosedForGood: () => setEnded(true),
    });
    socket.open({ sessionId: target.sessionId, token: target.token });
    return () => {
      stop();
      socket.close();
    };
    // onAlert is read through the listener each time; re-subscribing for it would replay.
  }, [ready, target?.sessionId, target?.token, socket, store]);

  /**
   * Locates `numbers` in batches: the first opens the watch unless one is running (`target`),
   * in which case they are added to it, which is also how a start cut short is finished.
   */
  const start = useMutation({
    mutationFn: async ({
      groupId,
      numbers: given,
    }: {
      groupId: string;
      numbers: string[] | null;
    }) => {
      // The whole group (bar opted-out numbers) unless told which numbers.
      const numbers =
        given ??
        expect(await api.overwatch.group({ params: { id: groupId } }), 200)
          .members.filter((member) => !member.optedOut)
          .map((member) => member.phoneNumber);
      let sessionId: string | null = target?.sessionId ?? null;
      const skipped: string[] = [];
      setProgress({ done: 0, total: numbers.length, skipped });
      for (let from = 0; from < numbers.length; from += maxNumbersPerRequest) {
        const batch = numbers.slice(from, from + maxNumbersPerRequest);
        const answer = await startBatch(groupId, batch, sessionId, (until) =>
          setProgress({
            done: from,
            total: numbers.length,
            skipped: [...skipped],
            waitingUntil: until,
          }),
        );
        store.addCallers(answer.callers);
        skipped.push(
          ...answer.invalid,
          ...answer.untextable.map((entry) => entry.phoneNumber),
          ...answer.callers
            .filter((caller) => caller.status === 'opted-out' || caller.status === 'failed')
            .map((caller) => caller.phoneNumber),
        );
        if (!sessionId && answer.token) {
          sessionId = answer.uuid;
          setTarget({ sessionId, token: answer.token, groupId, startedAt: Date.now() });
        }
        setProgress({
          done: Math.min(from + batch.length, numbers.length),
          total: numbers.length,
          skipped: [...skipped],
        });
      }
    },
  });

  const end = useMutation({
    mutationFn: async () => {
      if (!target) return;
      expect(
        await api.tracking.setDateTimeCompleted({ params: { uuid: target.sessionId }, body: {} }),
        200,
      );
    },
    onSuccess: () => setEnded(true),
  });

  const version = useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => store.version,
  );
  const connection = useSelector(socket.connection, selectStatusText);

  return {
    store,
    version,
    target,
    group: group.data,
    settings,
    progress,
    ended,
    connection,
    reconnect: socket.reconnectNow,
    groupError: group.error,
    loadingActive: active.isPending,
    start,
    end,
  };
}
