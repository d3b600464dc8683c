import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';
import { dateTimeIn } from './format';
import { sessionsTable } from './sessions-table';

describe('the Sessions table', () => {
  it('writes times as the team’s clock read them', () => {
    // 15:05 UTC in November is 09:05 in Chicago (CST), in July 10:05 (CDT).
    expect(dateTimeIn('2026-11-03T15:05:40.000Z', 'America/Chicago')).toBe('2026-11-03 09:05');
    expect(dateTimeIn('2026-07-03T15:05:00.000Z', 'America/Chicago')).toBe('2026-07-03 10:05');
    // Midnight is 00, not 24; the day is the zone's.
    expect(dateTimeIn('2026-11-04T05:00:00.000Z', 'America/Chicago')).toBe('2026-11-03 23:00');
    expect(dateTimeIn('2026-11-04T06:00:00.000Z', 'America/Chicago')).toBe('2026-11-04 00:00');
  });

  it('is a row per session, newest first as the API gave them, and the same as CSV', () => {
    const table = sessionsTable(
      [
        {
          startedAt: '2026-11-03T15:00:00.000Z',
          endedAt: null,
          dispatcherName: null,
          numbers: [],
          located: false,
          source: null,
          timeToLocateMs: null,
        },
        {
          startedAt: '2026-11-02T15:00:00.000Z',
          endedAt: '2026-11-02T15:12:00.000Z',
          dispatcherName: 'Dana Dispatcher',
          numbers: ['•••••••1001', '•••••••1002'],
          located: true,
          source: 'link',
          timeToLocateMs: 55_000,
        },
      ],
      'America/Chicago',
    );
    expect(toCsv(table)).toBe(
      [
        'Started (America/Chicago),Ended (America/Chicago),Dispatcher,Numbers,Located,Source,Time to locate (s)',
        '2026-11-03 09:00,,,,No,,',
        '2026-11-02 09:00,2026-11-02 09:12,Dana Dispatcher,"•••••••1001, •••••••1002",Yes,Text link,55',
      ]
        .map((line) => `${line}\r\n`)
        .join(''),
    );
  });
});
