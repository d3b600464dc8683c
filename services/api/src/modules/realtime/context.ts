import type { Database } from '@locus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiConfig } from '../../config';
import type { Metrics } from '../../platform/metrics';
import type { ChatService } from '../chat/service';
import type { MediaRelay } from '../media/relay';
import type { RowWriter } from './threaded-writer';
import type { Fanout } from './fanout';
import type { Sequencer } from './sequencer';
import type { WriteJournal } from './write-journal';

/** What a socket connection needs from its instance. */
export interface RealtimeContext {
  db: Database;
  log: FastifyBaseLogger;
  config: Pick<
    ApiConfig,
    | 'DISPATCHER_HIGH_WATER_BYTES'
    | 'CALLER_MAX_EVENTS_PER_SECOND'
    | 'CALLER_EVENT_BURST'
    | 'SOCKET_HEARTBEAT_MS'
  >;
  metrics: Metrics;
  sequencer: Sequencer;
  fanout: Fanout;
  writer: RowWriter;
  /** Keeps numbered rows in Redis until they are written, for a survivor to write them. */
  journal: WriteJournal;
  /** Chat with the caller (issue 12): set once the instance has built it (app.ts). */
  chat?: ChatService;
  /** Live video and media requests (issue 19): set once the instance has built it (app.ts). */
  media?: MediaRelay;
}
