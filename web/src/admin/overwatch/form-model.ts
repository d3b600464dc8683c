import {
  movementPresets,
  OverwatchGroupInput,
  overwatchLimits,
  type GeoJsonPolygon,
  type Movement,
  type OverwatchGroup,
  type Position,
  type SmsLanguage,
} from '@locus/contract';

/** A number in the form; `optedOut` is what the server said when the group was loaded. */
export interface MemberDraft {
  phoneNumber: string;
  label: string | null;
  optedOut: boolean;
}

/** A geofence in the form; `key` tells new ones apart until the server gives them an id. */
export interface GeofenceDraft {
  key: string;
  id?: string;
  name: string;
  polygon: GeoJsonPolygon;
}

export interface GroupDraft {
  name: string;
  language: SmsLanguage;
  members: MemberDraft[];
  geofences: GeofenceDraft[];
  staleAfterSeconds: number | string;
  movement: Movement;
  speedMps: number | string;
  maxSpeedMps: number | string;
  /** Only for a new group: the team it belongs to (undefined: the admin's first premiere team). */
  teamId?: string;
}

let nextKey = 0;
export const newGeofenceKey = (): string => `new-${(nextKey += 1)}`;

export function emptyDraft(teamId?: string): GroupDraft {
  return {
    name: '',
    language: 'en',
    members: [],
    geofences: [],
    staleAfterSeconds: overwatchLimits.staleAfterSeconds.default,
    movement: 'walking',
    speedMps: movementPresets.walking.speedMps,
    maxSpeedMps: movementPresets.walking.maxSpeedMps,
    teamId,
  };
}

export function draftOf(group: OverwatchGroup): GroupDraft {
  return {
    name: group.name,
    language: group.language,
    members: group.members.map((member) => ({ ...member })),
    geofences: group.geofences.map((fence) => ({ key: fence.id, ...fence })),
    staleAfterSeconds: group.staleAfterSeconds,
    movement: group.movement,
    speedMps: group.speedMps,
    maxSpeedMps: group.maxSpeedMps,
  };
}

const asNumber = (value: number | string): number =>
  typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);

/** The request body; a new group names its team, an existing one keeps its own. */
export function inputOf(draft: GroupDraft, creating: boolean): OverwatchGroupInput {
  return {
    name: draft.name.trim(),
    language: draft.language,
    members: draft.members.map(({ phoneNumber, label }) => ({ phoneNumber, label })),
    geofences: draft.geofences.map(({ id, name, polygon }) =>
      id === undefined ? { name, polygon } : { id, name, polygon },
    ),
    staleAfterSeconds: asNumber(draft.staleAfterSeconds),
    movement: draft.movement,
    speedMps: asNumber(draft.speedMps),
    maxSpeedMps: asNumber(draft.maxSpeedMps),
    ...(creating && draft.teamId ? { teamId: draft.teamId } : {}),
  };
}

export type FieldErrors = Partial<Record<keyof GroupDraft, string>>;

const fieldMessages: Partial<Record<keyof GroupDraft, (message: string) => string>> = {
  name: () => `Enter a name of at most ${overwatchLimits.nameMaxLength} characters`,
  staleAfterSeconds: () =>
    `A whole number of seconds from ${overwatchLimits.staleAfterSeconds.min} to ${overwatchLimits.staleAfterSeconds.max}`,
  speedMps: () => `A speed from ${overwatchLimits.speed.min} to ${overwatchLimits.speed.max} m/s`,
  maxSpeedMps: (message) =>
    message.includes('at least')
      ? message
      : `A speed from ${overwatchLimits.speed.min} to ${overwatchLimits.speed.max} m/s`,
  members: () => `At most ${overwatchLimits.numbersPerGroup} numbers`,
};

/** The contract's own checks before saving, worded per field. Empty when the draft is valid. */
export function validateDraft(draft: GroupDraft, creating: boolean): FieldErrors {
  const parsed = OverwatchGroupInput.safeParse(inputOf(draft, creating));
  if (parsed.success) return {};
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof GroupDraft | undefined;
    if (field === undefined || errors[field] !== undefined) continue;
    errors[field] = fieldMessages[field]?.(issue.message) ?? issue.message;
  }
  return errors;
}

/** The labels of the form's fields, for naming the field of a server's 400. */
export const fieldLabels: Record<string, string> = {
  name: 'Name',
  language: 'Text message language',
  members: 'Numbers',
  geofences: 'Geofences',
  staleAfterSeconds: 'Stale after',
  movement: 'Movement',
  speedMps: 'Assumed speed',
  maxSpeedMps: 'Impossible-jump speed',
  teamId: 'Team',
};

/** "geofences.1.polygon.coordinates" → "Geofences (2)". */
export function describeIssuePath(path: string): string {
  const [field, index] = path.split('.');
  const label = fieldLabels[field ?? ''] ?? path;
  return index !== undefined && /^\d+$/.test(index) ? `${label} (${Number(index) + 1})` : label;
}

/** Vertices of a polygon, all rings, the closing repeat not counted (as the limit counts them). */
export function vertexCount(polygon: GeoJsonPolygon): number {
  return polygon.coordinates.reduce((sum, ring) => sum + Math.max(ring.length - 1, 0), 0);
}

/** A drawn outline as a GeoJSON polygon: [lng, lat] points, closed. */
export function polygonOf(points: Position[]): GeoJsonPolygon {
  return { type: 'Polygon', coordinates: [[...points, points[0]!]] };
}

/** "1.5 m/s ≈ 5.4 km/h" for a speed field's hint. */
export function kmhHint(value: number | string): string {
  const mps = asNumber(value);
  if (!Number.isFinite(mps)) return 'Metres per second';
  const kmh = Math.round(mps * 3.6 * 10) / 10;
  return `Metres per second: about ${kmh} km/h`;
}

/** The preset whose speeds these are, or custom. */
export function movementOf(speedMps: number | string, maxSpeedMps: number | string): Movement {
  const speed = asNumber(speedMps);
  const max = asNumber(maxSpeedMps);
  for (const [name, preset] of Object.entries(movementPresets)) {
    if (preset.speedMps === speed && preset.maxSpeedMps === max) return name as Movement;
  }
  return 'custom';
}
