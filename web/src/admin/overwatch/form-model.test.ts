import { describe, expect, it } from 'vitest';
import {
  describeIssuePath,
  emptyDraft,
  inputOf,
  kmhHint,
  movementOf,
  polygonOf,
  validateDraft,
  vertexCount,
} from './form-model';

describe('the Overwatch group form', () => {
  it('checks a draft with the contract, worded per field', () => {
    const draft = { ...emptyDraft(), speedMps: 20, maxSpeedMps: 10, staleAfterSeconds: 5 };
    expect(validateDraft(draft, true)).toEqual({
      name: 'Enter a name of at most 100 characters',
      staleAfterSeconds: 'A whole number of seconds from 10 to 3600',
      maxSpeedMps: 'The impossible-jump speed must be at least the assumed speed.',
    });
    expect(validateDraft({ ...emptyDraft(), name: 'Night watch' }, true)).toEqual({});
  });

  it('sends the team only when creating', () => {
    const draft = { ...emptyDraft('5f0c7a55-1111-4111-8111-111111111111'), name: ' A ' };
    expect(inputOf(draft, true)).toMatchObject({ name: 'A', teamId: draft.teamId });
    expect(inputOf(draft, false)).not.toHaveProperty('teamId');
  });

  it('closes a drawn outline and counts its corners once', () => {
    const polygon = polygonOf([
      [0, 0],
      [1, 0],
      [0, 1],
    ]);
    expect(polygon.coordinates[0]).toEqual([
      [0, 0],
      [1, 0],
      [0, 1],
      [0, 0],
    ]);
    expect(vertexCount(polygon)).toBe(3);
  });

  it('names presets, speeds and the fields of a server issue', () => {
    expect(movementOf(10, 30)).toBe('boat');
    expect(movementOf(10, 31)).toBe('custom');
    expect(kmhHint(1.5)).toBe('Metres per second: about 5.4 km/h');
    expect(describeIssuePath('geofences.1.polygon')).toBe('Geofences (2)');
    expect(describeIssuePath('name')).toBe('Name');
  });
});
