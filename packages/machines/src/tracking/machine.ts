import { assign, fromPromise, setup } from 'xstate';
import type {
  LocationSource,
  RequestError,
  SessionClosedReason,
  SmsDeliveryStatus,
  SmsLanguage,
  TrackedLocation,
  TrackingEvent,
} from './events';

/** Bump when the context's shape changes: a persisted snapshot of another version is dropped. */
export const trackingSnapshotVersion = 1;

/** What the console knows about one caller (one phone) of the session. */
export interface CallerState {
  connected: boolean;
  focused: boolean;
  sharing: boolean;
  /** Oldest first. Each capture time appears once. */
  locations: TrackedLocation[];
}

export interface LogEntry {
  message: string;
  /** Epoch ms. */
  time: number;
}

/** The status texts the request flow itself sets (SPEC.md §4); the socket sets the others. */
export type RequestStatusText =
  'Unable to automatically retrieve location' | 'Unable to send SMS request for location';

export type TrackingModal = 'email-verification' | 'cleared-domain' | null;

export interface TrackingContext {
  phoneNumber: string | null;
  connectionRequestUuid: string | null;
  /** The dispatcher socket's connection token. */
  token: string | null;
  language: SmsLanguage;
  locationType: LocationSource | null;
  requestError: RequestError | null;
  statusText: RequestStatusText | null;
  modal: TrackingModal;
  log: LogEntry[];
  callers: Record<string, CallerState>;
}

const initialContext = (): TrackingContext => ({
  phoneNumber: null,
  connectionRequestUuid: null,
  token: null,
  language: 'en',
  locationType: null,
  requestError: null,
  statusText: null,
  modal: null,
  log: [],
  callers: {},
});

/** SPEC.md §4 step 1: a number without a leading + gets the default prefix +1. */
export function normalisePhoneNumber(input: string): string {
  const trimmed = input.trim();
  return trimmed.startsWith('+') ? trimmed : `+1${trimmed}`;
}

/** Errors that open a modal instead of offering a text message. */
function modalFor(error: RequestError): TrackingModal {
  if (error.code === 'verify-email') return 'email-verification';
  if (error.code === 'unauthorized-domain') return 'cleared-domain';
  return null;
}

function asRequestError(error: unknown): RequestError {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const { code, message } = error as { code: unknown; message?: unknown };
    return { code: String(code), message: typeof message === 'string' ? message : '' };
  }
  return { code: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

const languageNames: Record<SmsLanguage, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  zh: 'Mandarin',
};

const caller = (context: TrackingContext, callerId: string): CallerState =>
  context.callers[callerId] ?? { connected: false, focused: false, sharing: false, locations: [] };

const withCaller = (
  context: TrackingContext,
  callerId: string,
  change: Partial<CallerState>,
): Record<string, CallerState> => ({
  ...context.callers,
  [callerId]: { ...caller(context, callerId), ...change },
});

const entry = (message: string): LogEntry => ({ message, time: Date.now() });

const smsStatusMessages: Record<SmsDeliveryStatus, string> = {
  sent: 'Text message sent',
  delivered: 'Text message delivered',
  failed: 'Text message could not be sent',
  undelivered: 'Text message was not delivered',
};

const isSmsFailure = (status: SmsDeliveryStatus): boolean =>
  status === 'failed' || status === 'undelivered';

const sessionClosedMessages: Record<SessionClosedReason, string> = {
  ended: 'The tracking session has ended',
  'not-found': 'The tracking session could not be found',
  'invalid-token': 'The tracking session can no longer be joined',
};

/**
 * One dispatcher tracking one number (SPEC.md §4 "Tracking (dispatcher)"), steps 1–8 of the
 * request flow, the live events, and ending. Pure: every effect is a named actor or action the
 * platform provides (`startStream`, `lookup`, `requestSms`, `endTracking`, `openSocket`,
 * `closeSocket`). The UI reads tags and selectors, never state values.
 */
export const trackingMachine = setup({
  types: {
    context: {} as TrackingContext,
    events: {} as TrackingEvent,
  },
  actors: {
    startStream: fromPromise<
      { connectionRequestUuid: string; token: string },
      { phoneNumber: string }
    >(() => Promise.reject(new Error('startStream not provided'))),
    lookup: fromPromise<{ uuid: string }, { connectionRequestUuid: string }>(() =>
      Promise.reject(new Error('lookup not provided')),
    ),
    requestSms: fromPromise<
      { token: string },
      { connectionRequestUuid: string; language: SmsLanguage }
    >(() => Promise.reject(new Error('requestSms not provided'))),
    endTracking: fromPromise<void, { connectionRequestUuid: string | null }>(() =>
      Promise.reject(new Error('endTracking not provided')),
    ),
  },
  actions: {
    openSocket: (_, _params: { token: string }) => undefined,
    closeSocket: () => undefined,
    reset: assign(() => initialContext()),
    logMessage: assign({ log: ({ context }, message: string) => [...context.log, entry(message)] }),
    addLocation: assign(({ context, event }) => {
      if (event.type !== 'LIVE.LOCATION') return {};
      const current = caller(context, event.callerId);
      return {
        // SPEC.md §4: a new location sets the caller connected, sharing and focused.
        callers: withCaller(context, event.callerId, {
          connected: true,
          sharing: true,
          focused: true,
          locations: [...current.locations, event.location],
        }),
      };
    }),
    onCallerConnected: assign(({ context, event }) => {
      if (event.type !== 'LIVE.CALLER_CONNECTED') return {};
      // A disconnect clears connected, focused and sharing.
      const change = event.connected
        ? { connected: true }
        : { connected: false, focused: false, sharing: false };
      return {
        callers: withCaller(context, event.callerId, change),
        log: [...context.log, entry(event.connected ? 'Caller connected' : 'Caller disconnected')],
      };
    }),
    onTabFocus: assign(({ context, event }) => {
      if (event.type !== 'LIVE.TAB_FOCUS') return {};
      return { callers: withCaller(context, event.callerId, { focused: event.focused }) };
    }),
    onSharing: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SHARING') return {};
      return {
        callers: withCaller(context, event.callerId, { sharing: event.sharing }),
        log: event.sharing ? context.log : [...context.log, entry('Caller Stopped Sharing')],
      };
    }),
    onSharingError: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SHARING_ERROR') return {};
      return {
        callers: withCaller(context, event.callerId, { sharing: false }),
        log: [...context.log, entry('Caller unable to share location')],
      };
    }),
    onSmsReceived: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SMS_RECEIVED') return {};
      return { log: [...context.log, entry(`SMS Received: ${event.body}`)] };
    }),
    onSmsStatus: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SMS_STATUS') return {};
      const failed = isSmsFailure(event.status);
      // A later text that went out supersedes an earlier failure; other status texts stay.
      const statusText: RequestStatusText | null = failed
        ? 'Unable to send SMS request for location'
        : context.statusText === 'Unable to send SMS request for location'
          ? null
          : context.statusText;
      return { statusText, log: [...context.log, entry(smsStatusMessages[event.status])] };
    }),
    onSessionClosed: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SESSION_CLOSED') return {};
      return { log: [...context.log, entry(sessionClosedMessages[event.reason])] };
    }),
  },
  guards: {
    hasLocation: ({ context }) =>
      Object.values(context.callers).some((state) => state.locations.length > 0),
    isSmsFailure: ({ event }) => event.type === 'LIVE.SMS_STATUS' && isSmsFailure(event.status),
    /** SPEC.md §4: locations are deduplicated by capture time, per caller. */
    isNewLocation: ({ context, event }) => {
      if (event.type !== 'LIVE.LOCATION') return false;
      // Only a fix newer than all others is ever added, so the list is in capture order and the
      // newest is the one to beat: constant time, which matters when a rejoin replays thousands.
      const newest = caller(context, event.callerId).locations.at(-1);
      return (
        !newest || Date.parse(event.location.dateTimeCaptured) > Date.parse(newest.dateTimeCaptured)
      );
    },
  },
}).createMachine({
  id: 'tracking',
  context: initialContext,
  initial: 'idle',
  states: {
    idle: {
      tags: ['entry-controls'],
      on: {
        LOCATE: {
          target: 'tracking',
          actions: assign(({ event }) => {
            const phoneNumber = normalisePhoneNumber(event.phoneNumber);
            return { ...initialContext(), phoneNumber, log: [entry(`Locating ${phoneNumber}`)] };
          }),
        },
        RESUME: {
          target: 'tracking.request.resumed',
          actions: [
            assign(({ event }) => ({
              ...initialContext(),
              phoneNumber: event.phoneNumber,
              connectionRequestUuid: event.connectionRequestUuid,
              token: event.token,
              locationType: event.locationType,
              log: [entry(`Resumed tracking ${event.phoneNumber}`)],
            })),
            { type: 'openSocket', params: ({ event }) => ({ token: event.token }) },
          ],
        },
        DISMISS_MODAL: { actions: assign({ modal: null }) },
      },
    },
    tracking: {
      tags: ['tracking'],
      type: 'parallel',
      on: {
        'LIVE.LOCATION': { guard: 'isNewLocation', actions: 'addLocation' },
        'LIVE.CALLER_CONNECTED': { actions: 'onCallerConnected' },
        'LIVE.TAB_FOCUS': { actions: 'onTabFocus' },
        'LIVE.SHARING': { actions: 'onSharing' },
        'LIVE.SHARING_ERROR': { actions: 'onSharingError' },
        'LIVE.SMS_RECEIVED': { actions: 'onSmsReceived' },
        'LIVE.SMS_STATUS': { actions: 'onSmsStatus' },
        'LIVE.SESSION_CLOSED': { actions: 'onSessionClosed' },
        DISMISS_MODAL: { actions: assign({ modal: null }) },
      },
      states: {
        request: {
          initial: 'starting',
          states: {
            starting: {
              invoke: {
                id: 'startStream',
                src: 'startStream',
                input: ({ context }) => ({ phoneNumber: context.phoneNumber ?? '' }),
                onDone: {
                  target: 'lookingUp',
                  actions: [
                    assign(({ event }) => ({
                      connectionRequestUuid: event.output.connectionRequestUuid,
                      token: event.output.token,
                    })),
                    { type: 'openSocket', params: ({ event }) => ({ token: event.output.token }) },
                  ],
                },
                onError: {
                  target: '#tracking.idle',
                  actions: assign(({ context, event }) => {
                    const error = asRequestError(event.error);
                    return {
                      ...initialContext(),
                      requestError: error,
                      modal: modalFor(error),
                      log: [...context.log, entry(`Unable to start tracking: ${error.message}`)],
                    };
                  }),
                },
              },
            },
            lookingUp: {
              invoke: {
                id: 'lookup',
                src: 'lookup',
                input: ({ context }) => ({
                  connectionRequestUuid: context.connectionRequestUuid ?? '',
                }),
                onDone: {
                  // SPEC.md §4 step 6: a uuid back means the provider located the phone. Its fix
                  // is published before the answer, so it is usually here already; no text was
                  // sent, so there is no waiting modal either way.
                  target: 'settlingLookup',
                  actions: [
                    assign({ locationType: 'RAPID_SOS' }),
                    { type: 'logMessage', params: 'Automatic location lookup succeeded' },
                  ],
                },
                onError: {
                  // §8: every lookup error is stored, and a text message is offered.
                  target: 'smsPrompt',
                  actions: assign(({ context, event }) => {
                    const error = asRequestError(event.error);
                    return {
                      requestError: error,
                      modal: modalFor(error),
                      statusText: 'Unable to automatically retrieve location' as const,
                      log: [...context.log, entry('Unable to automatically retrieve location')],
                    };
                  }),
                },
              },
            },
            smsPrompt: {
              tags: ['sms-prompt'],
              on: {
                SEND_SMS: {
                  target: 'requestingSms',
                  actions: assign(({ event }) => ({ language: event.language })),
                },
                DECLINE_SMS: {
                  target: 'smsDeclined',
                  actions: { type: 'logMessage', params: 'Text message declined' },
                },
              },
            },
            smsDeclined: {},
            requestingSms: {
              tags: ['busy', 'sending-sms'],
              invoke: {
                id: 'requestSms',
                src: 'requestSms',
                input: ({ context }) => ({
                  connectionRequestUuid: context.connectionRequestUuid ?? '',
                  language: context.language,
                }),
                onDone: {
                  // Step 8: the type becomes Text and the waiting modal shows (unless the
                  // caller was quicker than the answer).
                  target: 'settling',
                  actions: assign(({ context }) => ({
                    locationType: 'TEXT_MESSAGE' as const,
                    statusText: null,
                    log: [
                      ...context.log,
                      entry(`SMS request sent (${languageNames[context.language]})`),
                    ],
                  })),
                },
                onError: {
                  target: 'smsPrompt',
                  actions: assign(({ context, event }) => {
                    const error = asRequestError(event.error);
                    return {
                      requestError: error,
                      modal: modalFor(error),
                      statusText: 'Unable to send SMS request for location' as const,
                      log: [...context.log, entry('Unable to send SMS request for location')],
                    };
                  }),
                },
              },
            },
            settlingLookup: {
              always: [
                { guard: 'hasLocation', target: 'located' },
                { target: 'awaitingProviderFix' },
              ],
            },
            /** The provider's fix is on its way over the socket. */
            awaitingProviderFix: {
              on: {
                'LIVE.LOCATION': {
                  guard: 'isNewLocation',
                  target: 'located',
                  actions: 'addLocation',
                },
              },
            },
            /** Waits for the first location, unless one arrived while the request was in flight. */
            settling: {
              always: [{ guard: 'hasLocation', target: 'located' }, { target: 'awaitingLocation' }],
            },
            awaitingLocation: {
              tags: ['waiting-for-location'],
              on: {
                // The text never reached the caller: waiting is pointless, offer it again.
                'LIVE.SMS_STATUS': {
                  guard: 'isSmsFailure',
                  target: 'smsPrompt',
                  actions: 'onSmsStatus',
                },
                // The waiting modal closes on the first new location.
                'LIVE.LOCATION': {
                  guard: 'isNewLocation',
                  target: 'located',
                  actions: 'addLocation',
                },
              },
            },
            located: { tags: ['located'] },
            /** After a reload: the socket's replay brings the history back. */
            resumed: {
              on: {
                'LIVE.LOCATION': {
                  guard: 'isNewLocation',
                  target: 'located',
                  actions: 'addLocation',
                },
              },
            },
          },
        },
        end: {
          initial: 'closed',
          states: {
            closed: { on: { END_TRACKING: 'confirming' } },
            confirming: {
              tags: ['end-confirmation'],
              on: { CANCEL_END: 'closed', CONFIRM_END: 'ending' },
            },
            ending: {
              tags: ['busy'],
              invoke: {
                id: 'endTracking',
                src: 'endTracking',
                input: ({ context }) => ({ connectionRequestUuid: context.connectionRequestUuid }),
                onDone: { target: '#tracking.idle', actions: ['closeSocket', 'reset'] },
                // Ending must not trap the dispatcher: the socket is closed and the map cleared
                // even when the server could not be told; the session then expires on its own.
                onError: { target: '#tracking.idle', actions: ['closeSocket', 'reset'] },
              },
            },
          },
        },
      },
    },
  },
});
