import { describe, expect, it } from 'vitest';
import {
  addDays,
  localToday,
  presetRange,
  rangeFromSearch,
  rangeProblem,
  searchOfRange,
} from './range';

describe('the metrics date range', () => {
  it('computes each preset from today, both ends included', () => {
    expect(presetRange('last-7-days', '2026-11-28')).toEqual({
      from: '2026-11-22',
      to: '2026-11-28',
    });
    expect(presetRange('last-30-days', '2026-03-01')).toEqual({
      from: '2026-01-31',
      to: '2026-03-01',
    });
    expect(presetRange('this-month', '2026-11-28')).toEqual({
      from: '2026-11-01',
      to: '2026-11-28',
    });
    expect(presetRange('last-12-months', '2026-11-28')).toEqual({
      from: '2025-12-01',
      to: '2026-11-28',
    });
    expect(presetRange('last-12-months', '2026-01-31')).toEqual({
      from: '2025-02-01',
      to: '2026-01-31',
    });
  });

  it('moves by calendar days across months, leap days and daylight-saving changes', () => {
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(localToday(new Date(2026, 10, 5, 23, 59))).toBe('2026-11-05');
  });

  it('names the field of a range the API would refuse', () => {
    expect(rangeProblem({ from: '2026-11-01', to: '2026-11-28' })).toBeNull();
    expect(rangeProblem({ from: '', to: '2026-11-28' })).toMatchObject({ field: 'from' });
    expect(rangeProblem({ from: '2026-02-30', to: '2026-03-02' })).toMatchObject({ field: 'from' });
    expect(rangeProblem({ from: '2026-11-02', to: '2026-11-01' })).toEqual({
      field: 'to',
      message: 'Must not be before the start',
    });
    expect(rangeProblem({ from: '2024-01-01', to: '2025-12-31' })).toBeNull();
    expect(rangeProblem({ from: '2024-01-01', to: '2026-01-01' })).toMatchObject({ field: 'to' });
  });

  it('reads the range from the address and writes it back', () => {
    const today = '2026-11-28';
    expect(rangeFromSearch(new URLSearchParams(''), today)).toEqual({
      preset: 'last-30-days',
      range: { from: '2026-10-30', to: today },
    });
    expect(rangeFromSearch(new URLSearchParams('range=last-7-days'), today)).toEqual({
      preset: 'last-7-days',
      range: { from: '2026-11-22', to: today },
    });
    expect(rangeFromSearch(new URLSearchParams('from=2026-01-01&to=2026-01-31'), today)).toEqual({
      preset: 'custom',
      range: { from: '2026-01-01', to: '2026-01-31' },
    });
    expect(searchOfRange('this-month', { from: '2026-11-01', to: today })).toBe(
      '?range=this-month',
    );
    expect(searchOfRange('custom', { from: '2026-01-01', to: '2026-01-31' })).toBe(
      '?from=2026-01-01&to=2026-01-31',
    );
  });
});
