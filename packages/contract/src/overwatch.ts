import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { Geofence, geofenceLimits } from './geofence';
import { ManySentBody, maxNumbersPerRequest, SmsLanguage, TextedCaller } from './tracking';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** The limits of Overwatch groups (issue 14). */
export const overwatchLimits = {
  nameMaxLength: 100,
  labelMaxLength: 100,
  /** Numbers one group may follow; a watch texts them `maxNumbersPerRequest` at a time. */
  numbersPerGroup: 500,
  staleAfterSeconds: { min: 10, max: 3600, default: 120 },
  /** Metres per second. */
  speed: { min: 0.1, max: 300 },
} as const;

/**
 * How the phones of a group move, for loss-of-signal awareness: `speedMps` grows an old fix's
 * uncertainty circle (where the phone may be by now), `maxSpeedMps` flags a jump between two
 * fixes as impossible. Presets fill both; the form may change them.
 */
export const movementPresets = {
  walking: { speedMps: 1.5, maxSpeedMps: 12 },
  boat: { speedMps: 10, maxSpeedMps: 30 },
  vehicle: { speedMps: 25, maxSpeedMps: 70 },
} as const;
export const Movement = z.enum(['walking', 'boat', 'vehicle', 'custom']);
export type Movement = z.infer<typeof Movement>;

const ACCESS =
  'Admins and team admins of a premiere-level team (the team’s groups), and platform admins. ' +
  'A team without the premiere level answers 403 `forbidden`; another team’s group answers 404 ' +
  '`not-found`; a dispatcher 403 `forbidden`.';

/** One number a group follows; `optedOut` when it texted STOP: shown, never texted. */
export const OverwatchMember = z.object({
  phoneNumber: z.string(),
  label: z.string().nullable(),
  optedOut: z.boolean(),
});
export type OverwatchMember = z.infer<typeof OverwatchMember>;

const Speed = z.number().min(overwatchLimits.speed.min).max(overwatchLimits.speed.max);

/** What a team admin edits. Numbers are typed or copied from call lists by the form. */
export const OverwatchGroupInput = z
  .object({
    name: z.string().trim().min(1).max(overwatchLimits.nameMaxLength),
    language: SmsLanguage.default('en'),
    members: z
      .array(
        z
          .object({
            phoneNumber: z.string().trim().min(1).max(40),
            label: z.string().trim().max(overwatchLimits.labelMaxLength).nullable().default(null),
          })
          .strict(),
      )
      .max(overwatchLimits.numbersPerGroup),
    geofences: z.array(Geofence).max(geofenceLimits.perGroup).default([]),
    staleAfterSeconds: z
      .number()
      .int()
      .min(overwatchLimits.staleAfterSeconds.min)
      .max(overwatchLimits.staleAfterSeconds.max)
      .default(overwatchLimits.staleAfterSeconds.default),
    movement: Movement.default('walking'),
    speedMps: Speed.default(movementPresets.walking.speedMps),
    maxSpeedMps: Speed.default(movementPresets.walking.maxSpeedMps),
    /** The team; defaults to the admin's first premiere-level team. */
    teamId: z.string().uuid().optional(),
  })
  .strict()
  .refine((group) => group.maxSpeedMps >= group.speedMps, {
    path: ['maxSpeedMps'],
    message: 'The impossible-jump speed must be at least the assumed speed.',
  });
export type OverwatchGroupInput = z.input<typeof OverwatchGroupInput>;

export const OverwatchGroup = z.object({
  id: z.string().uuid(),
  teamId: z.string().uuid(),
  teamName: z.string(),
  name: z.string(),
  language: SmsLanguage,
  members: z.array(OverwatchMember),
  geofences: z.array(Geofence.required({ id: true })),
  staleAfterSeconds: z.number().int(),
  movement: Movement,
  speedMps: z.number(),
  maxSpeedMps: z.number(),
  archivedAt: z.string().datetime().nullable(),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
});
export type OverwatchGroup = z.infer<typeof OverwatchGroup>;

export const OverwatchGroupSummary = OverwatchGroup.pick({
  id: true,
  teamId: true,
  teamName: true,
  name: true,
  language: true,
  archivedAt: true,
  updatedAt: true,
}).extend({
  memberCount: z.number().int(),
  optedOutCount: z.number().int(),
  geofenceCount: z.number().int(),
});
export type OverwatchGroupSummary = z.infer<typeof OverwatchGroupSummary>;

/** A number of a watch and what became of it: located by the automatic lookup, or texted. */
export const WatchedCaller = TextedCaller.extend({
  status: z.enum(['located', 'sent', 'queued', 'failed', 'opted-out']),
});
export type WatchedCaller = z.infer<typeof WatchedCaller>;

export const StartOverwatchBody = ManySentBody.extend({
  /** The watch (a tracking session): `join { sessionId: uuid }` on the dispatcher socket. */
  uuid: z.string().uuid(),
  /** A dispatcher socket token; null when this request added a batch to a running watch. */
  token: z.string().nullable(),
  callers: z.array(WatchedCaller),
});
export type StartOverwatchBody = z.infer<typeof StartOverwatchBody>;

/** A watch that has not ended, for reopening the Overwatch screen after a reload. */
export const ActiveWatch = z.object({
  uuid: z.string().uuid(),
  token: z.string(),
  groupId: z.string().uuid().nullable(),
  startedAt: z.string().datetime(),
  callers: z.array(z.object({ id: z.string().uuid(), phoneNumber: z.string() })),
});
export type ActiveWatch = z.infer<typeof ActiveWatch>;

const GroupId = z.object({ id: z.string().uuid() });

export const overwatchContract = c.router(
  {
    groups: {
      method: 'GET',
      path: '/api/v1/overwatch/groups',
      summary: 'The Overwatch groups of the teams the caller administers',
      description: `Archived groups only with \`archived=true\`. ${ACCESS}`,
      query: z.object({ archived: z.enum(['true', 'false']).default('false') }),
      responses: { 200: z.array(OverwatchGroupSummary), ...errors },
    },
    group: {
      method: 'GET',
      path: '/api/v1/overwatch/groups/:id',
      summary: 'One Overwatch group, with its numbers (opted-out ones marked) and geofences',
      description: ACCESS,
      pathParams: GroupId,
      responses: { 200: OverwatchGroup, ...errors },
    },
    createGroup: {
      method: 'POST',
      path: '/api/v1/overwatch/groups',
      summary: 'Create an Overwatch group',
      description:
        'Numbers without a leading + get +1; an invalid number answers 400 naming it; duplicates ' +
        `are merged. At most ${overwatchLimits.numbersPerGroup} numbers and ` +
        `${geofenceLimits.perGroup} geofences, each a GeoJSON Polygon of at most ` +
        `${geofenceLimits.maxVertices} vertices that does not cross itself (400 naming the ` +
        `problem). ${ACCESS}`,
      body: OverwatchGroupInput,
      responses: { 201: OverwatchGroup, ...errors },
    },
    updateGroup: {
      method: 'PUT',
      path: '/api/v1/overwatch/groups/:id',
      summary: 'Replace an Overwatch group’s name, numbers, language, geofences and thresholds',
      description: `The same rules as creating. A running watch keeps the numbers it started with. ${ACCESS}`,
      pathParams: GroupId,
      body: OverwatchGroupInput,
      responses: { 200: OverwatchGroup, ...errors },
    },
    archiveGroup: {
      method: 'POST',
      path: '/api/v1/overwatch/groups/:id/archive',
      summary: 'Archive an Overwatch group (it can be restored)',
      description: ACCESS,
      pathParams: GroupId,
      body: z.object({}).strict().optional(),
      responses: { 200: OverwatchGroup, ...errors },
    },
    restoreGroup: {
      method: 'POST',
      path: '/api/v1/overwatch/groups/:id/restore',
      summary: 'Bring an archived Overwatch group back',
      description: ACCESS,
      pathParams: GroupId,
      body: z.object({}).strict().optional(),
      responses: { 200: OverwatchGroup, ...errors },
    },
    startOverwatchStream: {
      method: 'POST',
      path: '/api/v1/location/start-overwatch-stream',
      summary: 'Start (or add a batch to) a watch: locate every number, automatic lookup first',
      description:
        'SPEC.md §7. Each number is first looked up with the emergency-data provider when the ' +
        'team has it; a number not found is texted a link, in the group’s language unless ' +
        '`language` says otherwise. ' +
        `At most ${maxNumbersPerRequest} numbers per request: a larger group is sent in batches, ` +
        'the first without `connectionRequestUuid` (it opens the watch and answers a dispatcher ' +
        'socket token), the next ones with the watch’s `uuid`. A number that texted STOP is ' +
        'answered `opted-out` and never texted; a number already in the watch is not texted ' +
        `again. Invalid and untextable numbers are answered as such. ${ACCESS} Texts count ` +
        'against the per-user and per-team text limits (429 `rate-limited` with `Retry-After`).',
      body: z
        .object({
          phoneNumbers: z.array(z.string().max(40)).min(1).max(maxNumbersPerRequest),
          groupId: z.string().uuid().optional(),
          connectionRequestUuid: z.string().uuid().optional(),
          language: SmsLanguage.optional(),
        })
        .strict(),
      responses: { 200: StartOverwatchBody, ...errors, 409: ErrorBody },
    },
    activeWatch: {
      method: 'GET',
      path: '/api/v1/overwatch/active-watch',
      summary: "The signed-in admin's watch that has not ended, if any",
      description:
        'After a reload the Overwatch screen reopens the running watch with a fresh socket token; ' +
        `\`join\` without \`lastSeq\` replays its history. ${ACCESS}`,
      responses: { 200: z.object({ watch: ActiveWatch.nullable() }), ...errors },
    },
  },
  { strictStatusCodes: true },
);
