import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, toCsv } from './csv';

describe('the metrics CSV', () => {
  it('quotes commas, quotes and line breaks, and doubles quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Smith, Jo')).toBe('"Smith, Jo"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('carriage\rreturn')).toBe('"carriage\rreturn"');
  });

  it('writes numbers as they are and nothing measured as an empty cell', () => {
    expect(csvCell(0)).toBe('0');
    expect(csvCell(1234)).toBe('1234');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(null)).toBe('');
  });

  it('keeps spreadsheets from running text as a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+12025550150')).toBe("'+12025550150");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('is a header row and one line per row, each ended by CRLF', () => {
    expect(
      toCsv({
        columns: ['Day', 'Sessions', 'Median (s)'],
        rows: [
          ['2026-11-01', 3, 12.5],
          ['2026-11-02', 0, null],
        ],
      }),
    ).toBe('Day,Sessions,Median (s)\r\n2026-11-01,3,12.5\r\n2026-11-02,0,\r\n');
    expect(toCsv({ columns: ['Name, full', 'Sessions'], rows: [] })).toBe(
      '"Name, full",Sessions\r\n',
    );
  });

  it('names the file after the team, the chart and the range', () => {
    expect(
      csvFileName(['Demo County 911', 'Locates per day'], { from: '2026-11-01', to: '2026-11-28' }),
    ).toBe('locus-demo-county-911-locates-per-day-2026-11-01-to-2026-11-28.csv');
    expect(csvFileName(['Team | user metrics!'], { from: '2026-01-01', to: '2026-01-02' })).toBe(
      'locus-team-user-metrics-2026-01-01-to-2026-01-02.csv',
    );
  });
});
