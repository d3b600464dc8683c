import type { Redis } from 'ioredis';

/** How often an instance says again which users have a console open on it. */
export const presenceHeartbeatMs = 3_000;
/** A user counts as online while an instance said so this recently: a dead one stops saying it. */
export const presenceFreshMs = 10_000;

/**
 * Which users have a console socket open, on any instance, and how to reach them there.
 * - Presence: one sorted set per user, members the instances that hold a console of theirs,
 *   scored by when the instance last said so. Each instance refreshes its members every
 *   `presenceHeartbeatMs` and removes one when the user's last console there closes; a member
 *   of an instance that died simply grows old, so `online` never outlives it by more than
 *   `presenceFreshMs`.
 * - Delivery: the `control:console-user` channel carries `{ userId, frame }`; every instance
 *   writes the frame to that user's consoles it holds.
 */
export class ConsoleUsers {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly instanceId: string,
  ) {}

  get channel(): string {
    return `${this.prefix}control:console-user`;
  }

  private key(userId: string): string {
    return `${this.prefix}console-presence:{${userId}}`;
  }

  /** Writes `frame` to every console socket of these users, on every instance. */
  async send(userIds: Iterable<string>, frame: string): Promise<void> {
    for (const userId of new Set(userIds))
      await this.redis.publish(this.channel, JSON.stringify({ userId, frame }));
  }

  /** A message of the channel, or undefined for one that is not ours. */
  static parse(message: string): { userId: string; frame: string } | undefined {
    try {
      const { userId, frame } = JSON.parse(message) as { userId?: unknown; frame?: unknown };
      return typeof userId === 'string' && typeof frame === 'string'
        ? { userId, frame }
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** This instance holds a console of the user (again). */
  async here(userIds: Iterable<string>): Promise<void> {
    const now = Date.now();
    const pipeline = this.redis.pipeline();
    for (const userId of new Set(userIds)) {
      pipeline.zadd(this.key(userId), now, this.instanceId);
      pipeline.pexpire(this.key(userId), presenceFreshMs * 3);
    }
    await pipeline.exec();
  }

  /** The user's last console on this instance closed. */
  async gone(userId: string): Promise<void> {
    await this.redis.zrem(this.key(userId), this.instanceId);
  }

  /** Which of these users have a console open somewhere now. */
  async online(userIds: string[]): Promise<Set<string>> {
    const since = Date.now() - presenceFreshMs;
    const pipeline = this.redis.pipeline();
    for (const userId of userIds) pipeline.zcount(this.key(userId), since, '+inf');
    const answers = (await pipeline.exec()) ?? [];
    const online = new Set<string>();
    answers.forEach(([error, count], index) => {
      if (!error && Number(count) > 0) online.add(userIds[index]!);
    });
    return online;
  }

  /** Refreshes this instance's presence every `presenceHeartbeatMs` for the users `present` names. */
  startHeartbeat(present: () => Iterable<string>, onError: (error: unknown) => void): void {
    this.timer = setInterval(() => {
      this.here(present()).catch(onError);
    }, presenceHeartbeatMs);
    this.timer.unref();
  }

  /** Stops the heartbeat and takes this instance's members off (shutdown). */
  async stop(users: Iterable<string>): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const pipeline = this.redis.pipeline();
    for (const userId of new Set(users)) pipeline.zrem(this.key(userId), this.instanceId);
    await pipeline.exec().catch(() => undefined);
  }
}
