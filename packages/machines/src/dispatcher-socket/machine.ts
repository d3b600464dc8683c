import { assign, setup } from 'xstate';
import type { DispatcherSocketEvent } from './events';

export interface DispatcherSocketContext {
  /** Reconnect attempts since the socket was last open. */
  attempts: number;
  maxAttempts: number;
  /** Times the socket came back after being open at least once. */
  reconnects: number;
  /** Why the socket is down, as SPEC.md's status text names it. */
  cause: 'Disconnected' | 'connect_timeout' | 'error' | null;
}

/** Wait before reconnect attempt n: 0.5 s, 1 s, 2 s … capped at 15 s. */
export function reconnectDelayMs(attempts: number): number {
  return Math.min(15_000, 500 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The dispatcher's socket connection and SPEC.md §4's status text. Pure: opening and closing
 * the socket are the `openSocket` and `closeSocket` actions, provided by the platform, which
 * then reports back with `SOCKET.*` events. On every (re)open the platform sends `join` with
 * the last seq it saw, so nothing is missed across a reconnect.
 */
export const dispatcherSocketMachine = setup({
  types: {
    context: {} as DispatcherSocketContext,
    events: {} as DispatcherSocketEvent,
    input: {} as { maxAttempts?: number } | undefined,
  },
  actions: {
    openSocket: () => undefined,
    closeSocket: () => undefined,
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    resetAttempts: assign({ attempts: 0 }),
    countReconnect: assign({ reconnects: ({ context }) => context.reconnects + 1 }),
    noteCause: assign({ cause: (_, cause: DispatcherSocketContext['cause']) => cause }),
  },
  delays: {
    reconnectDelay: ({ context }) => reconnectDelayMs(context.attempts),
  },
}).createMachine({
  id: 'dispatcherSocket',
  context: ({ input }) => ({
    attempts: 0,
    maxAttempts: input?.maxAttempts ?? 10,
    reconnects: 0,
    cause: null,
  }),
  initial: 'notConnected',
  on: {
    STOP: { target: '.notConnected', actions: ['closeSocket', 'resetAttempts'] },
  },
  states: {
    notConnected: {
      on: { CONNECT: 'connecting' },
    },
    connecting: {
      entry: 'openSocket',
      on: {
        'SOCKET.OPEN': { target: 'connected', actions: 'resetAttempts' },
        'SOCKET.TIMEOUT': {
          target: 'waiting',
          actions: { type: 'noteCause', params: 'connect_timeout' },
        },
        'SOCKET.ERROR': { target: 'waiting', actions: { type: 'noteCause', params: 'error' } },
        'SOCKET.CLOSE': { target: 'waiting', actions: { type: 'noteCause', params: 'error' } },
      },
    },
    connected: {
      tags: ['live'],
      initial: 'first',
      states: { first: {}, again: {} },
      on: {
        'SOCKET.CLOSE': {
          target: 'waiting',
          actions: { type: 'noteCause', params: 'Disconnected' },
        },
        'SOCKET.ERROR': { target: 'waiting', actions: { type: 'noteCause', params: 'error' } },
      },
    },
    waiting: {
      tags: ['retrying'],
      always: { guard: ({ context }) => context.attempts >= context.maxAttempts, target: 'gaveUp' },
      after: { reconnectDelay: 'reconnecting' },
      // "Reconnect now" from the console skips the wait.
      on: { CONNECT: 'reconnecting' },
    },
    reconnecting: {
      tags: ['retrying'],
      entry: ['countAttempt', 'openSocket'],
      on: {
        'SOCKET.OPEN': { target: 'connected.again', actions: ['resetAttempts', 'countReconnect'] },
        'SOCKET.TIMEOUT': {
          target: 'waiting',
          actions: { type: 'noteCause', params: 'connect_timeout' },
        },
        'SOCKET.ERROR': { target: 'waiting', actions: { type: 'noteCause', params: 'error' } },
        'SOCKET.CLOSE': { target: 'waiting', actions: { type: 'noteCause', params: 'error' } },
      },
    },
    gaveUp: {
      on: { CONNECT: { target: 'connecting', actions: 'resetAttempts' } },
    },
  },
});
