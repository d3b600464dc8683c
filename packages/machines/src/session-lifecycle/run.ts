import { createActor } from 'xstate';
import type { SessionLifecycleEvent } from './events';
import {
  sessionLifecycleMachine,
  type SessionLifecycleContext,
  type SessionLifecycleState,
} from './machine';

/** What is stored: `actor.getPersistedSnapshot()`, plain JSON. */
export type PersistedSessionLifecycle = ReturnType<
  ReturnType<typeof createActor<typeof sessionLifecycleMachine>>['getPersistedSnapshot']
>;

export type SessionLifecycleStep =
  | {
      taken: true;
      /** The state before the event, and after it. */
      from: SessionLifecycleState;
      state: SessionLifecycleState;
      context: SessionLifecycleContext;
      persisted: PersistedSessionLifecycle;
    }
  | { taken: false; state: SessionLifecycleState };

/** An actor on a stored snapshot; `null` (a session never stepped) starts it as requested. */
function actorOf(persisted: PersistedSessionLifecycle | null) {
  return createActor(sessionLifecycleMachine, persisted ? { snapshot: persisted } : {}).start();
}

/**
 * Runs one event on a stored session. `taken: false` when the machine refused it (the session has
 * ended, or the event answers something never asked): the caller stores nothing.
 */
export function stepSessionLifecycle(
  persisted: PersistedSessionLifecycle | null,
  event: SessionLifecycleEvent,
): SessionLifecycleStep {
  const actor = actorOf(persisted);
  const before = actor.getSnapshot();
  const from = before.value as SessionLifecycleState;
  if (!before.can(event)) {
    actor.stop();
    return { taken: false, state: from };
  }
  actor.send(event);
  const after = actor.getSnapshot();
  const result: SessionLifecycleStep = {
    taken: true,
    from,
    state: after.value as SessionLifecycleState,
    context: after.context,
    persisted: actor.getPersistedSnapshot(),
  };
  actor.stop();
  return result;
}

/** The state a stored snapshot is in. */
export function sessionLifecycleStateOf(
  persisted: PersistedSessionLifecycle | null,
): SessionLifecycleState {
  const actor = actorOf(persisted);
  const state = actor.getSnapshot().value as SessionLifecycleState;
  actor.stop();
  return state;
}

/** Whether the machine would take `event` (e.g. a rejoin) without running it. */
export function sessionLifecycleAccepts(
  persisted: PersistedSessionLifecycle | null,
  event: SessionLifecycleEvent,
): boolean {
  return stepSessionLifecycle(persisted, event).taken;
}
