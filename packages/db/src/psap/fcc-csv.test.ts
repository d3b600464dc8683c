import { describe, expect, it } from 'vitest';
import { parseFccPsapCsv } from './fcc-csv';

const HEADER = 'PSAP ID,PSAP Name,State,County,City,Type of Change,Date Last Modified,Comments';

function csv(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

describe('parseFccPsapCsv', () => {
  it('maps the registry columns and turns empty county and city into null', () => {
    const { rows, skipped } = parseFccPsapCsv(
      csv(
        HEADER,
        '1234,Alpha County 911,VA,Alpha County,Alphaville,Added,1/2/2024,',
        '5678,Beta City PD,md,,,Modified,3/4/2024,no county given',
      ),
    );
    expect(skipped).toEqual([]);
    expect(rows).toEqual([
      {
        fccPsapId: '1234',
        name: 'Alpha County 911',
        state: 'VA',
        county: 'Alpha County',
        city: 'Alphaville',
        deleted: false,
      },
      {
        fccPsapId: '5678',
        name: 'Beta City PD',
        state: 'MD',
        county: null,
        city: null,
        deleted: false,
      },
    ]);
  });

  it('handles quoted commas, doubled quotes and line breaks inside quotes', () => {
    const { rows, skipped } = parseFccPsapCsv(
      csv(
        HEADER,
        '1,"Smith, Jones and ""North"" 911",TX,"Smith, County",Town,,,',
        '2,"Two-line',
        'Name",TX,County,"",,,"a comment, with a comma"',
        '3,Plain 5" Sign Dispatch,TX,,,,,',
      ),
    );
    expect(skipped).toEqual([]);
    expect(rows.map((r) => [r.fccPsapId, r.name, r.county, r.city])).toEqual([
      ['1', 'Smith, Jones and "North" 911', 'Smith, County', 'Town'],
      ['2', 'Two-line Name', 'County', null],
      ['3', 'Plain 5" Sign Dispatch', null, null],
    ]);
  });

  it('strips a UTF-8 BOM before the first header, even a quoted one', () => {
    for (const header of [HEADER, '"PSAP ID","PSAP Name","State"']) {
      const { rows } = parseFccPsapCsv('\uFEFF' + csv(header, '9,Bom PSAP,CA,,,,,'));
      expect(rows.map((r) => r.fccPsapId)).toEqual(['9']);
    }
  });

  it('reads CRLF line endings as one line break each', () => {
    const text =
      'PSAP ID,PSAP Name,State,City\r\n1,Crlf One,WA,Seaside\r\n2,Crlf Two,Wash,\r\n' +
      '3,"Crlf\r\nThree",WA,Inland\r\n4,Crlf Four,W,\r\n';
    const { rows, skipped } = parseFccPsapCsv(text);
    expect(rows.map((r) => [r.name, r.city])).toEqual([
      ['Crlf One', 'Seaside'],
      ['Crlf Three', 'Inland'],
    ]);
    expect(skipped.map((s) => s.line)).toEqual([3, 6]);
  });

  it('matches headers case-insensitively, ignoring extra spaces, order and unknown columns', () => {
    const { rows } = parseFccPsapCsv(
      csv(' state ,Extra,psap   NAME,  PSAP id,CITY,type OF change', 'nc,x,Gamma 911,77,Gamma,'),
    );
    expect(rows).toEqual([
      {
        fccPsapId: '77',
        name: 'Gamma 911',
        state: 'NC',
        county: null,
        city: 'Gamma',
        deleted: false,
      },
    ]);
  });

  it('throws an error naming every missing required column', () => {
    const parse = () => parseFccPsapCsv(csv('PSAP ID,County,City', '1,A,B'));
    expect(parse).toThrow(Error);
    expect(parse).toThrow(/missing required column\(s\): PSAP Name, State\b/);
    expect(() => parseFccPsapCsv('')).toThrow(/PSAP ID, PSAP Name, State/);
  });

  it('skips rows with a bad state, reporting the physical line the record starts on', () => {
    const { rows, skipped } = parseFccPsapCsv(
      csv(
        HEADER,
        '1,"Spans',
        'two lines",VA,,,,,',
        '',
        '2,Bad State PSAP,Virginia,,,,,',
        '3,Good PSAP,va,,,,,',
        '4,Numeric State,12,,,,,',
      ),
    );
    expect(rows.map((r) => [r.fccPsapId, r.state])).toEqual([
      ['1', 'VA'],
      ['3', 'VA'],
    ]);
    expect(skipped).toEqual([
      { line: 5, reason: expect.stringMatching(/State "Virginia"/) },
      { line: 7, reason: expect.stringMatching(/State "12"/) },
    ]);
  });

  it('skips rows missing an id or name, and repeated ids', () => {
    const { rows, skipped } = parseFccPsapCsv(
      csv(HEADER, ',No Id,VA,,,,,', '5,,VA,,,,,', '6,First,VA,,,,,', '6,Second,VA,,,,,'),
    );
    expect(rows.map((r) => r.name)).toEqual(['First']);
    expect(skipped).toEqual([
      { line: 2, reason: 'missing PSAP ID' },
      { line: 3, reason: 'missing PSAP Name' },
      { line: 5, reason: expect.stringMatching(/duplicate PSAP ID 6 \(first on line 4\)/) },
    ]);
  });

  it('marks rows whose Type of Change is Deleted, in any case', () => {
    const { rows } = parseFccPsapCsv(
      csv(
        HEADER,
        '1,Kept,FL,,,Added,,',
        '2,Gone,FL,,,Deleted,,',
        '3,Also Gone,FL,,,  DELETED ,,',
        '4,Edited,FL,,,Modified,,',
      ),
    );
    expect(rows.map((r) => [r.fccPsapId, r.deleted])).toEqual([
      ['1', false],
      ['2', true],
      ['3', true],
      ['4', false],
    ]);
  });

  it('rejects an unterminated quote instead of swallowing the rest of the file', () => {
    expect(() => parseFccPsapCsv(csv(HEADER, '1,"Open,VA,,,,,', '2,Next,VA,,,,,'))).toThrow(
      /unterminated quoted field on line 2/,
    );
  });
});
