import type { InstanceStatus, PlatformStatus, StatusThresholds } from '@locus/contract';
import type { createDb, Database } from '@locus/db';
import type { SeenInstance } from '@locus/heartbeat';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { bucketQuantile, mergeBuckets } from './latency';
import {
  emailsOfLastHour,
  largestTables,
  lookupsOfLastHour,
  selectOne,
  serverConnections,
  textsOfLastHour,
} from './repo';
import { errorText, formatBytes, formatMs, formatPercent, Standing, withTimeout } from './standing';

type Card<K extends keyof PlatformStatus> = PlatformStatus[K];
export type DbPool = ReturnType<typeof createDb>['pool'];

const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

async function timed<T>(task: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await withTimeout(task());
  return { value, ms: round(performance.now() - started, 2) };
}

/**
 * `othersOfRoleAlive`: whether another process of its role is alive. A process that stopped on
 * purpose is amber while others carry its work (a rolling deploy), red when none does.
 */
export function instanceStatus(
  seen: SeenInstance,
  t: StatusThresholds,
  now: number,
  othersOfRoleAlive: boolean,
): InstanceStatus {
  const { heartbeat } = seen;
  const age = Math.max(0, now - Date.parse(heartbeat.at));
  const standing = new Standing();
  if (!seen.alive && heartbeat.stoppedAt)
    standing.add(
      othersOfRoleAlive ? 'amber' : 'red',
      `Stopped cleanly ${formatMs(age)} ago (shut down on purpose)` +
        (othersOfRoleAlive ? '.' : `, and no other ${heartbeat.role} process is alive.`),
    );
  else if (!seen.alive)
    standing.add(
      'red',
      `Stopped beating ${formatMs(age)} ago: the process has stopped or cannot reach Redis.`,
    );
  else standing.check(age, t.heartbeatAgeMs, () => `Its last heartbeat is ${formatMs(age)} old.`);
  standing
    .check(
      heartbeat.eventLoopLagMs,
      t.eventLoopLagMs,
      () =>
        `Event-loop delay ${formatMs(heartbeat.eventLoopLagMs)}: the process is too busy to answer promptly.`,
    )
    .check(
      heartbeat.memoryRssBytes,
      t.memoryRssBytes,
      () => `It uses ${formatBytes(heartbeat.memoryRssBytes)} of memory.`,
    );
  return {
    id: heartbeat.id,
    role: heartbeat.role,
    version: heartbeat.version,
    hostname: heartbeat.hostname,
    pid: heartbeat.pid,
    startedAt: heartbeat.startedAt,
    lastHeartbeatAt: heartbeat.at,
    alive: seen.alive,
    stoppedAt: seen.alive ? null : (heartbeat.stoppedAt ?? null),
    eventLoopLagMs: heartbeat.eventLoopLagMs,
    memoryRssBytes: heartbeat.memoryRssBytes,
    heapUsedBytes: heartbeat.heapUsedBytes,
    ...standing.result(),
  };
}

export function workersStatus(instances: SeenInstance[] | Error): Card<'workers'> {
  const standing = new Standing();
  if (instances instanceof Error) {
    standing.add('red', `The heartbeats could not be read: ${errorText(instances)}.`);
    return { alive: 0, ...standing.result() };
  }
  const alive = instances.filter((each) => each.alive && each.heartbeat.role === 'worker').length;
  if (alive === 0) standing.add('red', 'No worker is alive: no text, e-mail or lookup goes out.');
  return { alive, ...standing.result() };
}

export async function postgresStatus(
  db: Database,
  pool: DbPool,
  t: StatusThresholds,
): Promise<Card<'postgres'>> {
  const standing = new Standing();
  const poolUse = {
    inUse: pool.totalCount - pool.idleCount,
    open: pool.totalCount,
    max: pool.options.max ?? 10,
  };
  let roundTrip: number;
  try {
    roundTrip = (await timed(() => selectOne(db))).ms;
  } catch (error) {
    standing.add('red', `Postgres does not answer: ${errorText(error)}.`);
    return {
      reachable: false,
      roundTripMs: null,
      pool: poolUse,
      server: null,
      largestTables: [],
      ...standing.result(),
    };
  }
  standing.check(
    roundTrip,
    t.postgresRoundTripMs,
    () => `A query round trip takes ${formatMs(roundTrip)}.`,
  );
  const [server, tables] = await Promise.all([
    withTimeout(serverConnections(db)).catch(() => null),
    withTimeout(largestTables(db, 5)).catch(() => []),
  ]);
  if (server) {
    const ratio = server.connections / server.maxConnections;
    standing.check(
      ratio,
      t.postgresConnectionsRatio,
      () =>
        `${server.connections} of the server's ${server.maxConnections} connections are in use: new ones may be refused.`,
    );
  }
  return {
    reachable: true,
    roundTripMs: roundTrip,
    pool: poolUse,
    server,
    largestTables: tables,
    ...standing.result(),
  };
}

/** `INFO` text to its `field:value` pairs. */
function infoFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}

/** The eviction policy; `CONFIG` is often disabled on managed Redis, `INFO memory` has it too. */
async function evictionPolicy(redis: Redis, info: Map<string, string>): Promise<string | null> {
  try {
    const answer = (await withTimeout(redis.config('GET', 'maxmemory-policy'))) as string[];
    if (typeof answer[1] === 'string') return answer[1];
  } catch {
    // CONFIG renamed or refused: fall back on INFO.
  }
  return info.get('maxmemory_policy') ?? null;
}

export async function redisStatus(redis: Redis, t: StatusThresholds): Promise<Card<'redis'>> {
  const standing = new Standing();
  let roundTrip: number;
  try {
    roundTrip = (await timed(() => redis.ping())).ms;
  } catch (error) {
    standing.add('red', `Redis does not answer: ${errorText(error)}.`);
    return {
      reachable: false,
      roundTripMs: null,
      usedMemoryBytes: null,
      maxMemoryBytes: null,
      connectedClients: null,
      evictionPolicy: null,
      ...standing.result(),
    };
  }
  standing.check(roundTrip, t.redisRoundTripMs, () => `A PING takes ${formatMs(roundTrip)}.`);
  let info: Map<string, string>;
  try {
    const [memory, clients] = await Promise.all([
      withTimeout(redis.info('memory')),
      withTimeout(redis.info('clients')),
    ]);
    info = new Map([...infoFields(memory), ...infoFields(clients)]);
  } catch (error) {
    // It answered PING but not INFO (a slow or restricted Redis): this card says so, the
    // others still show.
    standing.add('red', `Redis did not answer INFO: ${errorText(error)}.`);
    return {
      reachable: true,
      roundTripMs: roundTrip,
      usedMemoryBytes: null,
      maxMemoryBytes: null,
      connectedClients: null,
      evictionPolicy: null,
      ...standing.result(),
    };
  }
  const used = info.has('used_memory') ? Number(info.get('used_memory')) : null;
  const max = Number(info.get('maxmemory') ?? 0) || null;
  const policy = await evictionPolicy(redis, info);
  if (policy !== null && policy !== 'noeviction')
    standing.add(
      'red',
      `Eviction policy ${policy}: when its memory is full Redis deletes keys, and BullMQ jobs and the replay streams would lose data; set maxmemory-policy noeviction.`,
    );
  if (used !== null && max !== null)
    standing.check(
      used / max,
      t.redisMemoryRatio,
      () => `Redis uses ${formatBytes(used)} of its ${formatBytes(max)} limit.`,
    );
  const connected = info.get('connected_clients');
  return {
    reachable: true,
    roundTripMs: roundTrip,
    usedMemoryBytes: used,
    maxMemoryBytes: max,
    connectedClients: connected === undefined ? null : Number(connected),
    evictionPolicy: policy,
    ...standing.result(),
  };
}

/** Jobs waiting (or prioritized) and delayed: the history's queue depth. */
export async function queueDepth(queues: readonly Queue[]): Promise<number> {
  const counts = await Promise.all(
    queues.map((queue) => withTimeout(queue.getJobCounts('wait', 'prioritized', 'delayed'))),
  );
  return counts.reduce(
    (sum, each) => sum + (each.wait ?? 0) + (each.prioritized ?? 0) + (each.delayed ?? 0),
    0,
  );
}

export async function queueStatus(
  queue: Queue,
  redis: Redis,
  t: StatusThresholds,
  now: number,
): Promise<Card<'queues'>[number]> {
  const standing = new Standing();
  try {
    const [counts, completedLastMinute, oldestId] = await Promise.all([
      withTimeout(queue.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed')),
      // BullMQ keeps completed jobs in a sorted set scored by when they finished.
      withTimeout(redis.zcount(queue.keys.completed!, now - 60_000, '+inf')),
      // Jobs are pushed on the left and taken from the right: the oldest is the last.
      withTimeout(redis.lindex(queue.keys.wait!, -1)),
    ]);
    let oldestWaitingAgeMs: number | null = null;
    if (oldestId) {
      const [timestamp, delay] = await withTimeout(
        redis.hmget(queue.toKey(oldestId), 'timestamp', 'delay'),
      );
      // A delayed job waits from when its delay ended.
      if (timestamp) oldestWaitingAgeMs = Math.max(0, now - Number(timestamp) - Number(delay ?? 0));
    }
    const waiting = (counts.wait ?? 0) + (counts.prioritized ?? 0);
    const failed = counts.failed ?? 0;
    standing
      .check(waiting, t.queueWaiting, () => `${waiting} jobs wait: the workers do not keep up.`)
      .check(
        oldestWaitingAgeMs,
        t.queueOldestWaitingMs,
        () => `The oldest waiting job has waited ${formatMs(oldestWaitingAgeMs ?? 0)}.`,
      )
      .check(
        failed,
        t.queueFailed,
        () =>
          `${failed} failed ${failed === 1 ? 'job is' : 'jobs are'} kept: retry or discard ${failed === 1 ? 'it' : 'them'} below.`,
      );
    return {
      name: queue.name,
      waiting,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed,
      completedLastMinute,
      oldestWaitingAgeMs,
      ...standing.result(),
    };
  } catch (error) {
    standing.add('red', `The queue could not be read: ${errorText(error)}.`);
    return {
      name: queue.name,
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      completedLastMinute: 0,
      oldestWaitingAgeMs: null,
      ...standing.result(),
    };
  }
}

/** The realtime figures of every alive API instance, summed. */
export function realtimeFigures(instances: SeenInstance[]): {
  sockets: Record<string, number>;
  fixesPerSecond: number;
  deliveryP50Ms: number | null;
  deliveryP99Ms: number | null;
  persistencePendingRows: number;
  persistenceOldestMs: number;
} {
  const apis = instances.filter((each) => each.alive).flatMap((each) => each.heartbeat.api ?? []);
  const sockets: Record<string, number> = {};
  let fixesPerSecond = 0;
  for (const api of apis) {
    for (const [kind, count] of Object.entries(api.sockets))
      sockets[kind] = (sockets[kind] ?? 0) + count;
    if (api.windowMs > 0) fixesPerSecond += api.fixesInWindow / (api.windowMs / 1000);
  }
  const buckets = mergeBuckets(apis.map((api) => api.deliveryBuckets));
  return {
    sockets,
    fixesPerSecond: round(fixesPerSecond),
    deliveryP50Ms: bucketQuantile(buckets, 0.5),
    deliveryP99Ms: bucketQuantile(buckets, 0.99),
    persistencePendingRows: apis.reduce((sum, api) => sum + api.persistencePendingRows, 0),
    persistenceOldestMs: Math.max(0, ...apis.map((api) => api.persistenceOldestMs)),
  };
}

export function realtimeStatus(instances: SeenInstance[], t: StatusThresholds): Card<'realtime'> {
  const figures = realtimeFigures(instances);
  const standing = new Standing()
    .check(
      figures.deliveryP99Ms,
      t.deliveryP99Ms,
      () =>
        `Over the last minute 1 fix in 100 took ${formatMs(figures.deliveryP99Ms ?? 0)} or more to reach the dispatchers.`,
    )
    .check(
      figures.persistencePendingRows,
      t.persistencePendingRows,
      () =>
        `${figures.persistencePendingRows} fixes and events are not yet in Postgres (Redis holds them).`,
    )
    .check(
      figures.persistenceOldestMs,
      t.persistenceOldestMs,
      () =>
        `The oldest fix not yet in Postgres has waited ${formatMs(figures.persistenceOldestMs)}.`,
    );
  return { ...figures, ...standing.result() };
}

export async function messagingStatus(
  db: Database,
  t: StatusThresholds,
): Promise<Card<'messaging'>> {
  const standing = new Standing();
  try {
    const [sms, email] = await Promise.all([
      withTimeout(textsOfLastHour(db)),
      withTimeout(emailsOfLastHour(db)),
    ]);
    const ratio = (rows: typeof sms) => {
      const sent = rows.reduce((sum, row) => sum + row.sent, 0);
      return sent === 0 ? null : rows.reduce((sum, row) => sum + row.failed, 0) / sent;
    };
    const smsRatio = ratio(sms);
    const emailRatio = ratio(email);
    standing
      .check(
        smsRatio,
        t.smsFailureRatio,
        () => `${formatPercent(smsRatio ?? 0)} of the last hour's texts failed.`,
      )
      .check(
        emailRatio,
        t.emailFailureRatio,
        () => `${formatPercent(emailRatio ?? 0)} of the last hour's e-mails failed.`,
      );
    return { sms, email, ...standing.result() };
  } catch (error) {
    standing.add('red', `Texts and e-mails could not be counted: ${errorText(error)}.`);
    return { sms: [], email: [], ...standing.result() };
  }
}

export async function lookupStatus(
  db: Database,
  instances: SeenInstance[],
  t: StatusThresholds,
): Promise<Card<'lookups'>> {
  const provider =
    instances.find((each) => each.alive && each.heartbeat.worker)?.heartbeat.worker?.lookup ??
    'unknown';
  const standing = new Standing();
  try {
    const counts = await withTimeout(lookupsOfLastHour(db));
    const successRatio = counts.answered === 0 ? null : counts.succeeded / counts.answered;
    standing
      .check(
        successRatio,
        t.lookupSuccessRatio,
        () =>
          `The provider found the phone in only ${formatPercent(successRatio ?? 0)} of the last hour's answered lookups.`,
      )
      .check(
        counts.p95Ms,
        t.lookupP95Ms,
        () => `1 lookup in 20 took ${formatMs(counts.p95Ms ?? 0)} or more to answer.`,
      );
    return {
      provider,
      lookups: counts.lookups,
      succeeded: counts.succeeded,
      successRatio: successRatio === null ? null : round(successRatio, 3),
      p95Ms: counts.p95Ms,
      ...standing.result(),
    };
  } catch (error) {
    standing.add('red', `Lookups could not be counted: ${errorText(error)}.`);
    return {
      provider,
      lookups: 0,
      succeeded: 0,
      successRatio: null,
      p95Ms: null,
      ...standing.result(),
    };
  }
}
