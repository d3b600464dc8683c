import { Redis } from 'ioredis';
import { processTree, statFields } from './proc';

/**
 * Finds the processes of the Redis and Postgres the pipelines use, so their CPU per fix can
 * be reported too: on this machine they share the two cores with everything else, and work a
 * pipeline pushes into them (Lua scripts, streams, inserts) is part of its cost. Empty when
 * the store is not a local process.
 */
export async function redisPids(url: string): Promise<number[]> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const match = /^process_id:(\d+)/m.exec(await redis.info('server'));
    return match ? localTree(Number(match[1])) : [];
  } catch {
    return [];
  } finally {
    redis.disconnect();
  }
}

/** All of Postgres: the postmaster (parent of any backend) and its children. */
export function postgresPids(backendPid: number): number[] {
  try {
    return localTree(Number(statFields(backendPid)[1]));
  } catch {
    return [];
  }
}

function localTree(pid: number): number[] {
  try {
    statFields(pid);
    return processTree(pid);
  } catch {
    return []; // a pid on another host, or not visible to us
  }
}
