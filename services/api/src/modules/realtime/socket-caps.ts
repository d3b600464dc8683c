import { closeCodes, realtimeLimits } from '@locus/contract';
import { randomBytes } from 'node:crypto';
import type { RealtimeContext } from './context';
import { idsIn } from './fanout';

interface Closable {
  close(code: number, reason: string): void;
}

/**
 * At most `realtimeLimits.maxSocketsPerToken` sockets per token (a caller link, a dispatcher
 * token), counted on every instance in one Redis list per token: beyond it the oldest is closed
 * (4409), wherever it is. Not the newcomer refused: a phone on a flaky network reconnects while
 * its previous socket is still half-open on the server, and must never be locked out by it.
 * Fails open (logged) when Redis does not answer: a caller's location matters more than the cap.
 */
export class TokenSocketCap {
  /** Names this instance's sockets in the lists every instance shares. */
  private readonly instanceId = randomBytes(6).toString('hex');
  private opened = 0;
  private readonly byMember = new Map<string, Closable>();

  constructor(private readonly context: Pick<RealtimeContext, 'sequencer' | 'fanout' | 'log'>) {}

  /** Listens, on every instance, for sockets a newer one with their token replaced. */
  async start(): Promise<void> {
    await this.context.fanout.control(
      this.context.sequencer.keys.socketsSuperseded(),
      (message) => {
        for (const member of idsIn(message)) {
          this.byMember.get(member)?.close(closeCodes.superseded, 'superseded');
        }
      },
    );
  }

  /** Counts a socket under its token; returns what to do once it has closed. */
  claim(socket: Closable, tokenHash: Buffer): () => Promise<void> {
    this.opened += 1;
    const member = `${this.instanceId}:${this.opened}`;
    const tokenKey = tokenHash.toString('hex');
    this.byMember.set(member, socket);
    const { sequencer, log } = this.context;
    const claimed = sequencer
      .claimSocket(tokenKey, member, realtimeLimits.maxSocketsPerToken)
      .catch((error: unknown) =>
        log.error({ err: error }, 'could not count the sockets of a token'),
      );
    return async () => {
      this.byMember.delete(member);
      await claimed;
      await sequencer
        .releaseSocket(tokenKey, member)
        .catch((error: unknown) => log.error({ err: error }, 'could not uncount a socket'));
    };
  }
}
