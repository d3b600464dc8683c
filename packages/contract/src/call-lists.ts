import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { PhoneNumber } from './tracking';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** The limits of team call lists. */
export const callListLimits = {
  nameMaxLength: 100,
  labelMaxLength: 100,
  /** Numbers in one create-call-list request. */
  numbersPerCreate: 200,
  /** Numbers one list may hold. */
  numbersPerList: 500,
  /** Lists in one get-team-numbers request. */
  listsPerDeploy: 20,
  /** Users in one add-existing-users or remove-existing-users request. */
  usersPerRequest: 100,
  searchResults: 20,
} as const;

const ACCESS =
  'Members of the list’s team may read; admins of that team and platform admins may change it. ' +
  'A list (or team) the caller cannot see answers 404 `not-found`; a member who is not an admin ' +
  'changing it gets 403 `forbidden`; the lists of a deactivated team answer its members 403 ' +
  '`no-active-team`.';

/** SPEC.md §3 "Call list": `id`, `callListName`, plus its team and how many numbers it holds. */
export const CallList = z.object({
  id: z.string().uuid(),
  callListName: z.string(),
  teamId: z.string().uuid(),
  /** The numbers stored on the list (attached users are not counted). */
  numberCount: z.number().int().nonnegative(),
});
export type CallList = z.infer<typeof CallList>;

export const CallListWithTeam = CallList.extend({ teamName: z.string() });
export type CallListWithTeam = z.infer<typeof CallListWithTeam>;

/** SPEC.md §3: "Entries carry phoneNumber". `label` says whose number it is, when known. */
export const CallListEntry = z.object({
  phoneNumber: z.string(),
  label: z.string().nullable(),
});
export type CallListEntry = z.infer<typeof CallListEntry>;

/** A team user attached to a list; their own phone number is deployed with it. */
export const CallListUser = z.object({
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
});
export type CallListUser = z.infer<typeof CallListUser>;

export const CallListName = z.string().trim().min(1).max(callListLimits.nameMaxLength);

/** A comma-separated list of uuids in one path segment (`a,b,c`), deduplicated. */
const uuidList = (max: number) =>
  z
    .string()
    .transform((value) => [...new Set(value.split(',').map((part) => part.trim()))])
    .pipe(z.array(z.string().uuid()).min(1).max(max));

const ListId = z.object({ id: z.string().uuid() });

export const callListsContract = c.router(
  {
    teamLists: {
      method: 'GET',
      path: '/api/v1/call-list/get-team-call-lists/:teamId',
      summary: 'A team’s call lists, by name',
      description: `Members of the team (and platform admins) only; any other team answers 404 \`not-found\`.`,
      pathParams: z.object({ teamId: z.string().uuid() }),
      responses: { 200: z.array(CallList), ...errors },
    },
    listWithTeam: {
      method: 'GET',
      path: '/api/v1/call-list/get-call-list-team/:id',
      summary: 'One call list with its team’s name',
      description: ACCESS,
      pathParams: ListId,
      responses: { 200: CallListWithTeam, ...errors },
    },
    listUsers: {
      method: 'GET',
      path: '/api/v1/call-list/get-team-cl-users/:id',
      summary: 'The team users attached to a call list, by name',
      description: `Only users who are still members of the list’s team. ${ACCESS}`,
      pathParams: ListId,
      responses: { 200: z.array(CallListUser), ...errors },
    },
    numbers: {
      method: 'GET',
      path: '/api/v1/call-list/get-team-numbers/:listIds',
      summary: 'The numbers to locate for one or more call lists (comma-separated ids, at most 20)',
      description:
        'Each list’s stored numbers plus the phone numbers of its attached users that are valid E.164 ' +
        '(labelled with the user’s name), deduplicated by number and sorted by number. A number ' +
        'stored with a label keeps that label. Every list must be readable by the caller, or the ' +
        'whole request answers 404 `not-found`. Only for those who may locate: 403 ' +
        '`no-active-team` / `registration-incomplete` (and `verify-email`, `unauthorized-domain`) ' +
        'as for start-stream.',
      pathParams: z.object({ listIds: uuidList(callListLimits.listsPerDeploy) }),
      responses: { 200: z.array(CallListEntry), ...errors },
    },
    deployable: {
      method: 'GET',
      path: '/api/v1/call-list/get-deployable-call-list/:id',
      summary: 'The team’s call lists that have something to locate (the Tracking Lists modal)',
      description:
        '`id` is the team. A list is deployable when get-team-numbers would answer at least one ' +
        'number for it: a stored number, or an attached user with a valid phone number. Members ' +
        'of the team only; any other team answers 404 `not-found`. Only for those who may locate, ' +
        'as get-team-numbers.',
      pathParams: ListId,
      responses: { 200: z.array(CallList), ...errors },
    },
    create: {
      method: 'POST',
      path: '/api/v1/call-list/create-call-list/:id',
      summary: 'Create a call list on team `id`, optionally with numbers (E.164, at most 200)',
      description:
        'Team admins and platform admins. Numbers are normalised to E.164 and deduplicated; one ' +
        'invalid number rejects the whole request (400 `validation-failed`, nothing stored). A ' +
        'name the team already uses (ignoring case) is 409 `conflict`.',
      pathParams: ListId,
      body: z
        .object({
          callListName: CallListName,
          phoneNumbers: z.array(PhoneNumber).max(callListLimits.numbersPerCreate).optional(),
        })
        .strict(),
      responses: { 201: CallList, ...errors, 409: ErrorBody },
    },
    search: {
      method: 'GET',
      path: '/api/v1/call-list/search',
      summary: 'Call lists of the caller’s teams whose name contains the text (at most 20)',
      description:
        'Case-insensitive; `%` and `_` match literally; an empty text lists the first 20 by name. ' +
        'Only the teams the caller is a member of (for platform admins too: a search never spans other teams).',
      query: z.object({ search: z.string().trim().max(100).default('') }),
      responses: { 200: z.array(CallList), ...errors },
    },
    addUsers: {
      method: 'PUT',
      path: '/api/v1/call-list/add-existing-users/:a/:b',
      summary: 'Attach team users (`b`, comma-separated ids) to call list `a`; answers its users',
      description:
        `Every user must be a member of the list’s team, else 404 \`not-found\` and nothing is ` +
        `attached. Attaching a user twice changes nothing. ${ACCESS}`,
      pathParams: z.object({
        a: z.string().uuid(),
        b: uuidList(callListLimits.usersPerRequest),
      }),
      body: c.noBody(),
      responses: { 200: z.array(CallListUser), ...errors },
    },
    removeUsers: {
      method: 'PUT',
      path: '/api/v1/call-list/remove-existing-users/:id',
      summary: 'Detach users from a call list; answers its users',
      description: `Users who are not attached are ignored. ${ACCESS}`,
      pathParams: ListId,
      body: z
        .object({
          userIds: z.array(z.string().uuid()).min(1).max(callListLimits.usersPerRequest),
        })
        .strict(),
      responses: { 200: z.array(CallListUser), ...errors },
    },
    remove: {
      method: 'PUT',
      path: '/api/v1/call-list/remove-call-list-team/:id',
      summary: 'Delete a call list, its numbers and its attached users',
      description: ACCESS,
      pathParams: ListId,
      body: c.noBody(),
      responses: { 200: z.object({ deleted: z.literal(true) }), ...errors },
    },
    addNumber: {
      method: 'POST',
      path: '/api/v1/call-list/add-new-user/:id',
      summary: 'Add a number (E.164) to a call list; answers the list’s numbers',
      description:
        'Adding a number the list already holds changes nothing, except that a label given ' +
        `replaces the stored one. A full list (500 numbers) is 409 \`conflict\`. ${ACCESS}`,
      pathParams: ListId,
      body: z
        .object({
          phoneNumber: PhoneNumber,
          label: z.string().trim().max(callListLimits.labelMaxLength).nullish(),
        })
        .strict(),
      responses: { 200: z.array(CallListEntry), ...errors, 409: ErrorBody },
    },
    rename: {
      method: 'PUT',
      path: '/api/v1/call-list/rename/:id',
      summary: 'Rename a call list (not in SPEC.md; the admin screen needs it)',
      description: `A name another list of the team uses (ignoring case) is 409 \`conflict\`. ${ACCESS}`,
      pathParams: ListId,
      body: z.object({ callListName: CallListName }).strict(),
      responses: { 200: CallList, ...errors, 409: ErrorBody },
    },
    removeNumbers: {
      method: 'PUT',
      path: '/api/v1/call-list/remove-numbers/:id',
      summary: 'Remove numbers from a call list; answers its numbers (not in SPEC.md)',
      description: `Numbers are matched exactly as stored (E.164); others are ignored. ${ACCESS}`,
      pathParams: ListId,
      body: z
        .object({
          phoneNumbers: z
            .array(z.string().trim().min(1).max(32))
            .min(1)
            .max(callListLimits.numbersPerList),
        })
        .strict(),
      responses: { 200: z.array(CallListEntry), ...errors },
    },
    listNumbers: {
      method: 'GET',
      path: '/api/v1/call-list/numbers/:id',
      summary: 'The numbers stored on one call list, by number (not in SPEC.md)',
      description: `Attached users’ numbers are not included (see get-team-numbers). ${ACCESS}`,
      pathParams: ListId,
      responses: { 200: z.array(CallListEntry), ...errors },
    },
    teamUsers: {
      method: 'GET',
      path: '/api/v1/call-list/team-users/:teamId',
      summary: 'The users of a team who can be attached to its call lists (not in SPEC.md)',
      description:
        'Team admins and platform admins (the admin screen needs it until the Teams API exists). ' +
        'Any other team answers 404 `not-found`; a member who is not an admin gets 403 `forbidden`.',
      pathParams: z.object({ teamId: z.string().uuid() }),
      responses: { 200: z.array(CallListUser), ...errors },
    },
  },
  { strictStatusCodes: true },
);
