import { assign, setup } from 'xstate';
import type { SessionLifecycleEvent, SessionLifecycleEventType } from './events';

/**
 * The session-lifecycle states, in the order a session usually passes them (the dashboard's
 * tracking machine is read as the same names: `selectLifecycleState`).
 */
export const sessionLifecycleStates = [
  'requested',
  'lookingUp',
  'texting',
  'waiting',
  'sharing',
  'ended',
] as const;
export type SessionLifecycleState = (typeof sessionLifecycleStates)[number];

export interface SessionLifecycleContext {
  /** How the caller is being located: what `tracking_sessions.location_type` holds. */
  locationType: 'TEXT_MESSAGE' | 'RAPID_SOS' | null;
  /** The request's last error (SPEC.md §8): `tracking_sessions.request_error`. */
  requestError: string | null;
  /** Lookups asked for and texts written so far: a result of one never asked for is refused. */
  lookups: number;
  texts: number;
  /** When it ended (ms since the epoch): `tracking_sessions.ended_at`. */
  endedAt: number | null;
  /** The last event taken (ms since the epoch); every event taken counts as activity. */
  lastEventAt: number | null;
}

type Active = Exclude<SessionLifecycleState, 'ended'>;
type ContextAction = 'startLookup' | 'found' | 'failed' | 'queueText';
type Transitions = Partial<Record<SessionLifecycleEventType, Active | 'ended'>>;

const initialContext = (): SessionLifecycleContext => ({
  locationType: null,
  requestError: null,
  lookups: 0,
  texts: 0,
  endedAt: null,
  lastEventAt: null,
});

/**
 * One tracking session as the API sees it (SPEC.md §4):
 *
 *   requested → lookingUp → sharing                       (the provider found the phone)
 *                         → texting → waiting → sharing   (a text, then the caller's first fix)
 *   any of them → ended                                   (End Tracking)
 *
 * The API's requests may overlap (a text while a lookup waits), so every event the API accepts
 * on a running session is taken in every running state; the state moves only forward through
 * the flow, and `sharing` (a location is arriving) is left only by ending. The machine refuses:
 * everything once ended (the API answers 409, or the first end time), and the result of a lookup
 * or a text never started. Pure: the API loads the persisted snapshot, sends the event, and writes
 * what the machine decided (`tracking_sessions.lifecycle`, `status`, `location_type`,
 * `request_error`, `ended_at`).
 */
export const sessionLifecycleMachine = setup({
  types: {
    context: {} as SessionLifecycleContext,
    events: {} as SessionLifecycleEvent,
  },
  guards: {
    lookupStarted: ({ context }) => context.lookups > 0,
    textQueued: ({ context }) => context.texts > 0,
  },
  actions: {
    startLookup: assign({ lookups: ({ context }) => context.lookups + 1 }),
    found: assign({ locationType: 'RAPID_SOS', requestError: null }),
    failed: assign({
      requestError: ({ event }) =>
        event.type === 'LOOKUP_FAILED' || event.type === 'TEXT_FAILED' ? event.code : null,
    }),
    queueText: assign({
      locationType: 'TEXT_MESSAGE',
      requestError: null,
      texts: ({ context }) => context.texts + 1,
    }),
    end: assign({ endedAt: ({ event }) => event.at }),
    touch: assign({ lastEventAt: ({ event }) => event.at }),
  },
}).createMachine({
  id: 'sessionLifecycle',
  context: initialContext,
  initial: 'requested',
  states: {
    requested: {
      on: running({
        LOOKUP_STARTED: 'lookingUp',
        TEXT_QUEUED: 'texting',
        TEXT_FAILED: 'texting',
        LOCATION_ASKED_BY_TEXT: 'waiting',
        FIX_RECEIVED: 'sharing',
      }),
    },
    lookingUp: {
      on: running({
        LOOKUP_FOUND: 'sharing',
        LOOKUP_FAILED: 'texting',
        TEXT_QUEUED: 'texting',
        TEXT_FAILED: 'texting',
        LOCATION_ASKED_BY_TEXT: 'waiting',
        FIX_RECEIVED: 'sharing',
      }),
    },
    /** A text is offered (after a failed lookup) or on its way. */
    texting: {
      on: running({
        LOOKUP_STARTED: 'lookingUp',
        LOOKUP_FOUND: 'sharing',
        TEXT_SENT: 'waiting',
        LOCATION_ASKED_BY_TEXT: 'waiting',
        FIX_RECEIVED: 'sharing',
      }),
    },
    /** The caller was texted: waiting for their first location. */
    waiting: {
      on: running({
        LOOKUP_STARTED: 'lookingUp',
        LOOKUP_FOUND: 'sharing',
        TEXT_QUEUED: 'texting',
        // The text never reached the caller: waiting is pointless, it is offered again.
        TEXT_FAILED: 'texting',
        FIX_RECEIVED: 'sharing',
      }),
    },
    /** A location has arrived; later requests and failures change what is stored, not this. */
    sharing: { on: running({}) },
    ended: { type: 'final' },
  },
});

/**
 * A running state's transitions: `moves` names the events that change the state; every other
 * event the API may report on a running session is taken in place (its context change only).
 */
function running(moves: Transitions) {
  const take = (
    type: SessionLifecycleEventType,
    extra: { guard?: 'lookupStarted' | 'textQueued'; action?: ContextAction } = {},
  ) => ({
    ...(extra.guard ? { guard: extra.guard } : {}),
    ...(moves[type] ? { target: moves[type] } : {}),
    actions: extra.action ? (['touch', extra.action] as const) : (['touch'] as const),
  });
  return {
    LOOKUP_STARTED: take('LOOKUP_STARTED', { action: 'startLookup' }),
    LOOKUP_FOUND: take('LOOKUP_FOUND', { guard: 'lookupStarted', action: 'found' }),
    LOOKUP_FAILED: take('LOOKUP_FAILED', { guard: 'lookupStarted', action: 'failed' }),
    TEXT_QUEUED: take('TEXT_QUEUED', { action: 'queueText' }),
    TEXT_SENT: take('TEXT_SENT', { guard: 'textQueued' }),
    TEXT_FAILED: take('TEXT_FAILED', { action: 'failed' }),
    LOCATION_ASKED_BY_TEXT: take('LOCATION_ASKED_BY_TEXT'),
    FIX_RECEIVED: take('FIX_RECEIVED'),
    REJOIN: take('REJOIN'),
    END: { target: 'ended' as const, actions: ['touch', 'end'] as const },
  };
}
