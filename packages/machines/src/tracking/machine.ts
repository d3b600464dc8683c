import { assign, fromPromise, setup } from 'xstate';
import type {
  CallerDevice,
  CallerSmsStatus,
  LocationSource,
  ManySent,
  ManyTarget,
  RequestError,
  SessionCaseTransfer,
  SessionClosedReason,
  SmsDeliveryStatus,
  SessionCallerNumber,
  SmsLanguage,
  TextedLocationOutcome,
  TrackedLocation,
  TrackingEvent,
} from './events';

/** Bump when the context's shape changes: a persisted snapshot of another version is dropped. */
export const trackingSnapshotVersion = 3;

/** What the console knows about one caller (one phone) of the session. */
export interface CallerState {
  connected: boolean;
  focused: boolean;
  sharing: boolean;
  /** Oldest first, by capture time (a late fix takes its place in time). Each time appears once. */
  locations: TrackedLocation[];
  /** The phone's last report about itself (battery, network, background, permission). */
  device?: CallerDevice;
}

export interface LogEntry {
  message: string;
  /** Epoch ms. */
  time: number;
  /** The caller a live event came from, so the log can be filtered by number. */
  callerId?: string;
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
  /** Each caller's phone number, in the order the callers were added to the session. */
  callerNumbers: Record<string, string>;
  /** What became of each caller's text message, newest report first. */
  smsStatus: Record<string, CallerSmsStatus>;
  /** The session texts many numbers (SPEC.md §4 "Multi-number flows"): no lookup, no prompt. */
  multi: boolean;
  /** What the multi-number request texts, until it has been sent. */
  manyTarget: ManyTarget | null;
  /** The session's newest case transfer (SPEC.md §3 case-transfer fields), from its log. */
  transfer: SessionCaseTransfer | null;
  /**
   * Set when the case went to a colleague (the socket closed with 4412): who took it. The view
   * stays, read-only, until the dispatcher leaves it (`LEAVE_TRANSFERRED`).
   */
  transferredTo: string | null;
  /**
   * SPEC.md §3 "chatInitiated flag": the dispatcher opened the chat on this session. The End
   * Tracking confirmation offers Download Chat only then.
   */
  chatInitiated: boolean;
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
  callerNumbers: {},
  smsStatus: {},
  multi: false,
  manyTarget: null,
  transfer: null,
  transferredTo: null,
  chatInitiated: false,
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

const delayedMessage = "Delayed locations received (taken while the caller's phone was offline)";
const textedMessage = 'Location received by text';

/** The log's line for a text the caller sent, with what became of a location in it. */
function smsReceivedMessage(body: string, location: TextedLocationOutcome | undefined): string {
  if (!location || location.outcome === 'mapped') return `SMS Received: ${body}`;
  if (location.outcome === 'duplicate')
    return `SMS Received: ${body} (location already received from the caller's page)`;
  return `SMS Received: ${body} (location not mapped: ${location.reason ?? 'unreadable'})`;
}

const capturedAt = (location: TrackedLocation): number => Date.parse(location.dateTimeCaptured);

/** Where a fix captured at `time` goes in a capture-ordered list: after every fix not newer. */
function insertionIndex(locations: readonly TrackedLocation[], time: number): number {
  let low = 0;
  let high = locations.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (capturedAt(locations[middle]!) <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

const entry = (message: string, callerId?: string): LogEntry =>
  callerId === undefined ? { message, time: Date.now() } : { message, time: Date.now(), callerId };

/** The callers a send request (or a rejoin) named: their numbers, and their texts' fate. */
function withSentCallers(
  context: TrackingContext,
  sent: readonly SessionCallerNumber[],
): Pick<TrackingContext, 'callerNumbers' | 'smsStatus'> {
  const callerNumbers = { ...context.callerNumbers };
  const smsStatus = { ...context.smsStatus };
  for (const sentCaller of sent) {
    callerNumbers[sentCaller.id] = sentCaller.phoneNumber;
    if (sentCaller.status) smsStatus[sentCaller.id] = sentCaller.status;
  }
  return { callerNumbers, smsStatus };
}

/** "SMS request sent to 3 numbers (Spanish)", plus what could not be texted. */
function sentMessages(sent: ManySent, language: SmsLanguage, callerId?: string): LogEntry[] {
  const texted = sent.callers.filter((c) => c.status === 'sent' || c.status === 'queued');
  const entries = [
    entry(
      `SMS request sent to ${texted.length} ${texted.length === 1 ? 'number' : 'numbers'} (${languageNames[language]})`,
      callerId,
    ),
  ];
  for (const c of sent.callers) {
    if (c.status === 'failed') entries.push(entry(`Unable to send SMS to ${c.phoneNumber}`, c.id));
    if (c.status === 'opted-out')
      entries.push(entry(`${c.phoneNumber} has opted out of text messages`, c.id));
  }
  for (const number of sent.invalid) entries.push(entry(`Invalid number not texted: ${number}`));
  return entries;
}

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
  transferred: 'This case is now read-only',
};

/** The log's line for each step of a case transfer. */
function caseTransferMessage(transfer: SessionCaseTransfer): string {
  switch (transfer.status) {
    case 'offered':
      return `Transfer offered to ${transfer.toName}`;
    case 'accepted':
      return `Transferred to ${transfer.toName}`;
    case 'denied':
      return `Transfer declined by ${transfer.toName}`;
    case 'cancelled':
      return `Transfer to ${transfer.toName} cancelled`;
    case 'expired':
      return `Transfer to ${transfer.toName} expired (no answer)`;
  }
}

/** ADD_NUMBERS' numbers: an invocation's input is computed from the event that entered its state. */
function manyTargetOf(event: { type: string }): ManyTarget {
  const added = event as Extract<TrackingEvent, { type: 'ADD_NUMBERS' }>;
  return { phoneNumbers: added.type === 'ADD_NUMBERS' ? added.phoneNumbers : [] };
}

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
      { connectionRequestUuid: string; token: string; callerId?: string },
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
    /** Opens the session with the target's first number (a call list's first, read first). */
    startMany: fromPromise<
      { connectionRequestUuid: string; token: string; phoneNumber: string; callerId?: string },
      { target: ManyTarget }
    >(() => Promise.reject(new Error('startMany not provided'))),
    /** Texts every number of the target a link, in the running session. */
    sendMany: fromPromise<
      ManySent,
      { connectionRequestUuid: string; target: ManyTarget; language: SmsLanguage }
    >(() => Promise.reject(new Error('sendMany not provided'))),
  },
  actions: {
    openSocket: (_, _params: { token: string }) => undefined,
    closeSocket: () => undefined,
    reset: assign(() => initialContext()),
    logMessage: assign({ log: ({ context }, message: string) => [...context.log, entry(message)] }),
    addLocation: assign(({ context, event }) => {
      if (event.type !== 'LIVE.LOCATION') return {};
      const current = caller(context, event.callerId);
      const locations = [...current.locations];
      const at = insertionIndex(locations, capturedAt(event.location));
      locations.splice(at, 0, event.location);
      // Once per outage, not per fix: the first late fix after one that came on time.
      const lateAfterOnTime =
        event.location.delayMs !== undefined && locations[at - 1]?.delayMs === undefined;
      const messages = [
        ...(lateAfterOnTime ? [entry(delayedMessage, event.callerId)] : []),
        // Every one: each is a text the caller sent by hand.
        ...(event.location.deliveredBy === 'sms' ? [entry(textedMessage, event.callerId)] : []),
      ];
      return {
        log: messages.length > 0 ? [...context.log, ...messages] : context.log,
        // SPEC.md §4: a new location sets the caller connected, sharing and focused; not one
        // the caller texted back, which says the page is what could not get through.
        callers: withCaller(
          context,
          event.callerId,
          event.location.deliveredBy === 'sms'
            ? { locations }
            : { connected: true, sharing: true, focused: true, locations },
        ),
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
        log: [
          ...context.log,
          entry(event.connected ? 'Caller connected' : 'Caller disconnected', event.callerId),
        ],
      };
    }),
    onDevice: assign(({ context, event }) => {
      if (event.type !== 'LIVE.DEVICE') return {};
      return { callers: withCaller(context, event.callerId, { device: event.device }) };
    }),
    onTabFocus: assign(({ context, event }) => {
      if (event.type !== 'LIVE.TAB_FOCUS') return {};
      return { callers: withCaller(context, event.callerId, { focused: event.focused }) };
    }),
    onSharing: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SHARING') return {};
      return {
        callers: withCaller(context, event.callerId, { sharing: event.sharing }),
        log: event.sharing
          ? context.log
          : [...context.log, entry('Caller Stopped Sharing', event.callerId)],
      };
    }),
    onSharingError: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SHARING_ERROR') return {};
      return {
        callers: withCaller(context, event.callerId, { sharing: false }),
        log: [...context.log, entry('Caller unable to share location', event.callerId)],
      };
    }),
    onSmsReceived: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SMS_RECEIVED') return {};
      const message = smsReceivedMessage(event.body, event.location);
      return { log: [...context.log, entry(message, event.callerId)] };
    }),
    onTextLocationRequested: assign(({ context, event }) => {
      if (event.type !== 'LIVE.TEXT_LOCATION_REQUESTED') return {};
      return {
        log: [...context.log, entry('Asked the caller for their location by text', event.callerId)],
      };
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
      return {
        statusText,
        smsStatus: { ...context.smsStatus, [event.callerId]: event.status },
        log: [...context.log, entry(smsStatusMessages[event.status], event.callerId)],
      };
    }),
    onSessionClosed: assign(({ context, event }) => {
      if (event.type !== 'LIVE.SESSION_CLOSED') return {};
      return {
        log: [...context.log, entry(sessionClosedMessages[event.reason])],
        ...(event.reason === 'transferred'
          ? { transferredTo: context.transfer?.toName ?? 'a colleague' }
          : {}),
      };
    }),
    onCaseTransfer: assign(({ context, event }) => {
      if (event.type !== 'LIVE.CASE_TRANSFER') return {};
      return {
        transfer: event.transfer,
        log: [...context.log, entry(caseTransferMessage(event.transfer))],
      };
    }),
  },
  guards: {
    hasLocation: ({ context }) =>
      Object.values(context.callers).some((state) => state.locations.length > 0),
    /** One number's text failing re-offers it; among many numbers the others may still answer. */
    isSmsFailure: ({ context, event }) =>
      !context.multi && event.type === 'LIVE.SMS_STATUS' && isSmsFailure(event.status),
    /** SPEC.md §4: locations are deduplicated by capture time, per caller. */
    isNewLocation: ({ context, event }) => {
      if (event.type !== 'LIVE.LOCATION') return false;
      // The list is in capture order: a fix newer than the newest (nearly always) is new in
      // constant time, which matters when a rejoin replays thousands; a late one is looked up.
      const { locations } = caller(context, event.callerId);
      const time = capturedAt(event.location);
      const newest = locations.at(-1);
      if (!newest || time > capturedAt(newest)) return true;
      const at = insertionIndex(locations, time);
      return at === 0 || capturedAt(locations[at - 1]!) !== time;
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
        LOCATE_MANY: {
          target: 'tracking.request.startingMany',
          actions: assign(({ event }) => ({
            ...initialContext(),
            multi: true,
            manyTarget: event.target,
            language: event.language,
            log: [
              entry(
                'phoneNumbers' in event.target
                  ? `Locating ${event.target.phoneNumbers.length} ${event.target.phoneNumbers.length === 1 ? 'number' : 'numbers'}`
                  : `Locating ${event.target.callListIds.length === 1 ? 'a call list' : `${event.target.callListIds.length} call lists`}`,
              ),
            ],
          })),
        },
        RESUME: {
          target: 'tracking.request.resumed',
          actions: [
            assign(({ event }) => ({
              ...initialContext(),
              ...withSentCallers(initialContext(), event.callers ?? []),
              multi: (event.callers?.length ?? 0) > 1,
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
        'LIVE.DEVICE': { actions: 'onDevice' },
        'LIVE.SHARING': { actions: 'onSharing' },
        'LIVE.SHARING_ERROR': { actions: 'onSharingError' },
        'LIVE.SMS_RECEIVED': { actions: 'onSmsReceived' },
        'LIVE.TEXT_LOCATION_REQUESTED': { actions: 'onTextLocationRequested' },
        'LIVE.SMS_STATUS': { actions: 'onSmsStatus' },
        'LIVE.SESSION_CLOSED': { actions: 'onSessionClosed' },
        'LIVE.CASE_TRANSFER': { actions: 'onCaseTransfer' },
        // No end request: the session is the colleague's now, only this view goes.
        LEAVE_TRANSFERRED: {
          guard: ({ context }) => context.transferredTo !== null,
          target: '#tracking.idle',
          actions: ['closeSocket', 'reset'],
        },
        DISMISS_MODAL: { actions: assign({ modal: null }) },
        CHAT_INITIATED: { actions: assign({ chatInitiated: true }) },
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
                    assign(({ context, event }) => ({
                      connectionRequestUuid: event.output.connectionRequestUuid,
                      token: event.output.token,
                      callerNumbers:
                        event.output.callerId && context.phoneNumber
                          ? { [event.output.callerId]: context.phoneNumber }
                          : context.callerNumbers,
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
            /** Multi-number flow: the session is opened with the first number… */
            startingMany: {
              invoke: {
                id: 'startMany',
                src: 'startMany',
                input: ({ context }) => ({ target: context.manyTarget ?? { phoneNumbers: [] } }),
                onDone: {
                  target: 'sendingMany',
                  actions: [
                    assign(({ context, event }) => ({
                      connectionRequestUuid: event.output.connectionRequestUuid,
                      token: event.output.token,
                      phoneNumber: event.output.phoneNumber,
                      callerNumbers: event.output.callerId
                        ? { [event.output.callerId]: event.output.phoneNumber }
                        : context.callerNumbers,
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
            /** …then every number is texted a link: the texts are the request, no lookup. */
            sendingMany: {
              tags: ['sending-many'],
              invoke: {
                id: 'sendMany',
                src: 'sendMany',
                input: ({ context }) => ({
                  connectionRequestUuid: context.connectionRequestUuid ?? '',
                  language: context.language,
                  target: context.manyTarget ?? { phoneNumbers: [] },
                }),
                onDone: {
                  target: 'settling',
                  actions: assign(({ context, event }) => ({
                    ...withSentCallers(context, event.output.callers),
                    manyTarget: null,
                    locationType: 'TEXT_MESSAGE' as const,
                    log: [...context.log, ...sentMessages(event.output, context.language)],
                  })),
                },
                onError: {
                  target: 'sendManyFailed',
                  actions: assign(({ context, event }) => {
                    const error = asRequestError(event.error);
                    return {
                      requestError: error,
                      modal: modalFor(error),
                      statusText: 'Unable to send SMS request for location' as const,
                      log: [
                        ...context.log,
                        entry(`Unable to send SMS request for location: ${error.message}`),
                      ],
                    };
                  }),
                },
              },
            },
            /** Nobody was texted: the dispatcher may add numbers or end tracking. */
            sendManyFailed: { tags: ['send-many-failed'] },
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
        /** "Add numbers" on a running session: text more typed numbers a link each. */
        adding: {
          initial: 'ready',
          states: {
            ready: {
              on: {
                ADD_NUMBERS: {
                  guard: ({ context }) => context.connectionRequestUuid !== null,
                  target: 'sending',
                  actions: assign(({ event }) => ({ multi: true, language: event.language })),
                },
              },
            },
            sending: {
              tags: ['adding-numbers'],
              invoke: {
                id: 'addNumbers',
                src: 'sendMany',
                input: ({ context, event }) => ({
                  connectionRequestUuid: context.connectionRequestUuid ?? '',
                  language: context.language,
                  target: manyTargetOf(event),
                }),
                onDone: {
                  target: 'ready',
                  actions: assign(({ context, event }) => ({
                    ...withSentCallers(context, event.output.callers),
                    log: [...context.log, ...sentMessages(event.output, context.language)],
                  })),
                },
                onError: {
                  target: 'ready',
                  actions: assign(({ context, event }) => {
                    const error = asRequestError(event.error);
                    return {
                      log: [
                        ...context.log,
                        entry(`Unable to send SMS request for location: ${error.message}`),
                      ],
                    };
                  }),
                },
              },
            },
          },
        },
      },
    },
  },
});
