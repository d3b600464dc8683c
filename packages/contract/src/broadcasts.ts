import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** The limits of a maintenance broadcast. */
export const broadcastLimits = {
  /** Characters of a broadcast's text, after trimming. */
  textMaxLength: 280,
} as const;

export const BroadcastLevel = z.enum(['info', 'warning']);
export type BroadcastLevel = z.infer<typeof BroadcastLevel>;

export const BroadcastText = z.string().trim().min(1).max(broadcastLimits.textMaxLength);

/**
 * A maintenance broadcast (issue 22): a banner the platform owner posts that every open console
 * (dashboard, Overwatch, admin, training) shows until it ends or is withdrawn.
 */
export const Broadcast = z.object({
  id: z.string().uuid(),
  level: BroadcastLevel,
  text: z.string(),
  /** ISO 8601: when it was posted (it shows from then on). */
  startsAt: z.string().datetime({ offset: true }),
  /** ISO 8601: when it stops showing by itself; null until withdrawn. */
  endsAt: z.string().datetime({ offset: true }).nullable(),
  /** The poster's name; null when that account was removed since. */
  postedBy: z.string().nullable(),
});
export type Broadcast = z.infer<typeof Broadcast>;

export const PostBroadcast = z
  .object({
    level: BroadcastLevel,
    text: BroadcastText,
    /** ISO 8601, in the future; omitted or null: until withdrawn. */
    endsAt: z
      .string()
      .datetime({ offset: true })
      .nullable()
      .optional()
      .refine((value) => value == null || Date.parse(value) > Date.now(), {
        message: 'The end time must be in the future.',
      }),
  })
  .strict();
export type PostBroadcast = z.infer<typeof PostBroadcast>;

/** Every broadcast showing now, newest first (what a console draws, and the socket's frame). */
export const CurrentBroadcasts = z.object({ current: z.array(Broadcast) });
export type CurrentBroadcasts = z.infer<typeof CurrentBroadcasts>;

const ACCESS =
  "The platform owner's company only (a platform admin); anyone else gets 403 `forbidden`, and " +
  'nothing changes.';

export const broadcastsContract = c.router({
  post: {
    method: 'POST',
    path: '/api/v1/platform/broadcasts',
    summary:
      'Post a maintenance broadcast to every console (info or warning, up to 280 characters)',
    description:
      `${ACCESS} The text is trimmed and must hold 1 to 280 characters; \`endsAt\`, when given, ` +
      'must be in the future (else 400 `validation-failed` naming the field). Every open console, ' +
      'on every API instance, receives the new list of current broadcasts on its console socket ' +
      '(`broadcasts` frame) within about a second. Audited `broadcast.posted`.',
    body: PostBroadcast,
    responses: { 201: Broadcast, ...errors },
  },
  withdraw: {
    method: 'DELETE',
    path: '/api/v1/platform/broadcasts/:id',
    summary: 'Withdraw a maintenance broadcast: every console stops showing it',
    description:
      `${ACCESS} Only a current broadcast can be withdrawn: an unknown one, one already ` +
      'withdrawn or one whose end time has passed answers 404 `not-found`. Audited ' +
      '`broadcast.withdrawn`.',
    pathParams: z.object({ id: z.string().uuid() }),
    body: c.noBody(),
    responses: { 204: c.noBody(), ...errors },
  },
  current: {
    method: 'GET',
    path: '/api/v1/broadcasts/current',
    summary: 'The maintenance broadcasts showing now (not withdrawn, not ended), newest first',
    description:
      'Any signed-in user. A console reads it on start, so a broadcast shows before its console ' +
      'socket is up; the socket then keeps it current.',
    responses: { 200: CurrentBroadcasts, 401: ErrorBody },
  },
  consoleTicket: {
    method: 'GET',
    path: '/api/v1/console/ticket',
    summary: 'A one-use ticket to open the console socket (`/api/v1/console/socket?ticket=…`)',
    description:
      'Any signed-in user. The ticket works once, within 30 seconds, and is tied to the sign-in ' +
      'that asked for it: signing that session out closes the socket. It keeps the bearer token ' +
      'out of the socket URL (and so out of access logs). A GET (answered `no-store`) because a ' +
      'console reconnecting on its own is not the user at work: it must not hold off the idle ' +
      'timeout, which every non-read request does.',
    responses: {
      200: z.object({ ticket: z.string(), expiresInSeconds: z.number().int() }),
      401: ErrorBody,
    },
  },
});
