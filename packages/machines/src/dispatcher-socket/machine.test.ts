import { createActor, SimulatedClock } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import type { DispatcherSocketEvent } from './events';
import { dispatcherSocketMachine, reconnectDelayMs } from './machine';
import { connectionStatusTexts, selectIsLive, selectStatusText } from './selectors';

const socketEvents: DispatcherSocketEvent[] = [
  { type: 'CONNECT' },
  { type: 'SOCKET.OPEN' },
  { type: 'SOCKET.CLOSE' },
  { type: 'SOCKET.ERROR' },
  { type: 'SOCKET.TIMEOUT' },
  { type: 'STOP' },
];

function start(maxAttempts = 3) {
  const clock = new SimulatedClock();
  const opened: number[] = [];
  const machine = dispatcherSocketMachine.provide({
    actions: { openSocket: () => void opened.push(clock.now()) },
  });
  const actor = createActor(machine, { input: { maxAttempts }, clock }).start();
  return { actor, clock, opened, status: () => selectStatusText(actor.getSnapshot()) };
}

describe('the dispatcher socket machine', () => {
  it('reaches every status text of SPEC.md from the start, by real event sequences', () => {
    // Model-based: every state reachable through the socket's events (and the reconnect timer).
    const paths = getShortestPaths(dispatcherSocketMachine, {
      events: [
        ...socketEvents,
        { type: 'xstate.after.reconnectDelay.dispatcherSocket.waiting' } as never,
      ],
      input: { maxAttempts: 2 },
      // States differ by where they are and how many attempts are used; `reconnects` only counts.
      serializeState: (state) =>
        JSON.stringify([state.value, state.context.attempts, state.context.cause]),
    });
    const reached = new Set(paths.map((path) => selectStatusText(path.state)));
    expect([...reached].sort()).toEqual([...connectionStatusTexts].sort());
    for (const path of paths) {
      // Replaying each path on a real actor ends in the same state: the graph is the machine.
      const actor = createActor(dispatcherSocketMachine, { input: { maxAttempts: 2 } }).start();
      for (const step of path.steps) actor.send(step.event);
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    }
  });

  it('opens the socket, reports Connected, and is live', () => {
    const { actor, opened, status } = start();
    expect(status()).toBe('Not Connected');
    actor.send({ type: 'CONNECT' });
    expect(opened).toHaveLength(1);
    actor.send({ type: 'SOCKET.OPEN' });
    expect(status()).toBe('Connected');
    expect(selectIsLive(actor.getSnapshot())).toBe(true);
  });

  it('after a drop shows Disconnected, retries with growing waits, and shows reconnect when back', () => {
    const { actor, clock, opened, status } = start();
    actor.send({ type: 'CONNECT' });
    actor.send({ type: 'SOCKET.OPEN' });
    actor.send({ type: 'SOCKET.CLOSE' });
    expect(status()).toBe('Disconnected');
    clock.increment(reconnectDelayMs(0));
    expect(status()).toBe('Attempting to Reconnect');
    expect(opened).toHaveLength(2);
    actor.send({ type: 'SOCKET.TIMEOUT' });
    expect(status()).toBe('connect_timeout');
    clock.increment(reconnectDelayMs(1) - 1);
    expect(opened).toHaveLength(2);
    clock.increment(1);
    expect(opened).toHaveLength(3);
    actor.send({ type: 'SOCKET.OPEN' });
    expect(status()).toBe('reconnect');
    expect(actor.getSnapshot().context).toMatchObject({ attempts: 0, reconnects: 1 });
  });

  it('gives up after the allowed attempts, and starts over on CONNECT', () => {
    const { actor, clock, status } = start(2);
    actor.send({ type: 'CONNECT' });
    actor.send({ type: 'SOCKET.ERROR' });
    expect(status()).toBe('error');
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      clock.increment(reconnectDelayMs(attempt));
      expect(status()).toBe('Attempting to Reconnect');
      actor.send({ type: 'SOCKET.ERROR' });
    }
    expect(status()).toBe('Unable to Reconnect');
    actor.send({ type: 'CONNECT' });
    actor.send({ type: 'SOCKET.OPEN' });
    expect(status()).toBe('Connected');
  });

  it('STOP closes the socket from any state', () => {
    let closed = 0;
    const machine = dispatcherSocketMachine.provide({
      actions: { closeSocket: () => void (closed += 1) },
    });
    const actor = createActor(machine, { input: {} }).start();
    actor.send({ type: 'CONNECT' });
    actor.send({ type: 'SOCKET.OPEN' });
    actor.send({ type: 'STOP' });
    expect(closed).toBe(1);
    expect(selectStatusText(actor.getSnapshot())).toBe('Not Connected');
  });

  it('caps the wait between attempts', () => {
    expect([1, 2, 3, 4, 10].map(reconnectDelayMs)).toEqual([500, 1000, 2000, 4000, 15_000]);
  });
});
