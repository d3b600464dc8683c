import {
  callerClientEvents,
  callerServerEvents,
  closeCodes,
  consoleServerEvents,
  dispatcherClientEvents,
  dispatcherServerEvents,
  realtimeLimits,
  realtimePaths,
} from '@locus/contract';
import { generateSchema } from '@anatine/zod-openapi';
import type { ZodTypeAny } from 'zod';
import { toJsonSchema2020, type JsonSchema } from './json-schema-dialect';

const list = (events: Record<string, unknown>) =>
  Object.keys(events)
    .map((name) => `\`${name}\``)
    .join(', ');

/** The realtime part of the docs, derived from the contract's event maps. */
export const realtimeDescription = `## Realtime sockets
Every frame is JSON text: \`{ "event": "<name>", "data": { … } }\`; frames over ${realtimeLimits.maxFrameBytes} bytes close the socket with ${closeCodes.messageTooBig}.

- **Dispatcher**: \`GET ${realtimePaths.dispatcher}?token=<connection token>\`, then send \`join\` with \`{ sessionId, lastSeq? }\`.
  Sends: ${list(dispatcherClientEvents)}. Receives: ${list(dispatcherServerEvents)}.
  Session events carry \`seq\`; rejoin with the last \`seq\` you saw to receive what you missed, exactly once and in order, before \`joined\`.
- **Caller**: \`GET ${realtimePaths.caller}?token=<caller link token>\`.
  Sends: ${list(callerClientEvents)}. Receives: ${list(callerServerEvents)}.
- **Console**: \`GET ${realtimePaths.console}?ticket=<one-use ticket from GET /api/v1/console/ticket>\`; every signed-in console keeps one.
  Sends nothing. Receives: ${list(consoleServerEvents)} (every maintenance broadcast showing now, on connect and on every change; every case transfer offered to or by the user, on every change).

The payload of every event is in the schemas below, named \`<socket>.<send|receive>.<event>\`.

Close codes: ${Object.entries(closeCodes)
  .map(([name, code]) => `${code} ${name}`)
  .join(', ')}.
`;

/** Every socket event's payload as an OpenAPI schema, named `<socket>.<direction>.<event>`. */
export function realtimeSchemas(): Record<string, JsonSchema> {
  const sides = {
    'dispatcher.send': dispatcherClientEvents,
    'dispatcher.receive': dispatcherServerEvents,
    'caller.send': callerClientEvents,
    'caller.receive': callerServerEvents,
    'console.receive': consoleServerEvents,
  } satisfies Record<string, Record<string, ZodTypeAny>>;
  return Object.fromEntries(
    Object.entries(sides).flatMap(([side, events]) =>
      Object.entries(events).map(([event, schema]) => [
        `${side}.${event}`,
        toJsonSchema2020(generateSchema(schema) as unknown as JsonSchema),
      ]),
    ),
  );
}
