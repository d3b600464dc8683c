/** Whether this process exports traces: set once by `startTracing`, read on every hot call. */
export const tracingState = { on: false };
