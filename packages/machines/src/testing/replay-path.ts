import type { EventObject } from 'xstate';
import { expect } from 'vitest';

/**
 * For the model-based tests: replays the steps of a path `xstate/graph` found on a fresh actor,
 * checking that the machine takes each event. The first step is the machine's own start
 * (`xstate.init`), not an event anyone sends, so it is skipped.
 */
export function replayPath<E extends EventObject>(
  actor: { getSnapshot(): { can(event: E): boolean }; send(event: E): void },
  steps: readonly { event: E }[],
): void {
  for (const { event } of steps) {
    if ((event.type as string) === 'xstate.init') continue;
    expect(actor.getSnapshot().can(event)).toBe(true);
    actor.send(event);
  }
}
