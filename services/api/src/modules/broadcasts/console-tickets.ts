import type { Redis } from 'ioredis';
import { looksLikeToken, newToken, hashToken } from '../sessions/tokens';

/** How long a console-socket ticket works once issued. */
export const CONSOLE_TICKET_TTL_SECONDS = 30;

/** Whose console a ticket opens: the user and the sign-in (auth session) that asked for it. */
export interface ConsoleGrant {
  userId: string;
  authSessionId: string;
}

/**
 * One-use tickets for the console socket, so that the bearer token never travels in a socket
 * URL (URLs end up in proxies' access logs). A ticket is 256 random bits; Redis keeps only its
 * SHA-256, for 30 s, and `GETDEL` hands it out once, on whichever instance the socket reaches.
 */
export class ConsoleTickets {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(hash: Buffer): string {
    return `${this.prefix}console-ticket:${hash.toString('hex')}`;
  }

  async issue(grant: ConsoleGrant): Promise<string> {
    const { token, hash } = newToken();
    await this.redis.set(this.key(hash), JSON.stringify(grant), 'EX', CONSOLE_TICKET_TTL_SECONDS);
    return token;
  }

  /** The grant of a ticket seen for the first time within its 30 s; undefined otherwise. */
  async redeem(ticket: string | null): Promise<ConsoleGrant | undefined> {
    if (!looksLikeToken(ticket)) return undefined;
    const stored = await this.redis.getdel(this.key(hashToken(ticket)));
    if (!stored) return undefined;
    const grant = JSON.parse(stored) as Partial<ConsoleGrant>;
    return typeof grant.userId === 'string' && typeof grant.authSessionId === 'string'
      ? { userId: grant.userId, authSessionId: grant.authSessionId }
      : undefined;
  }
}

/** The channel on which an instance tells every other that the current broadcasts changed. */
export function broadcastsChannel(prefix: string): string {
  return `${prefix}control:broadcasts`;
}
