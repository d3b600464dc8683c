/**
 * Parser for the FCC "911 Master PSAP Registry" CSV export. Pure: text in, rows out; the
 * database side lives in `repo.ts`.
 */

export interface PsapImportRow {
  fccPsapId: string;
  name: string;
  /** Two-letter postal code, uppercased. */
  state: string;
  county: string | null;
  city: string | null;
  /** The registry marks retired PSAPs with Type of Change "Deleted" instead of dropping them. */
  deleted: boolean;
}

export interface FccPsapCsvResult {
  rows: PsapImportRow[];
  /** `line` is the 1-based physical line the record starts on (the header is line 1). */
  skipped: { line: number; reason: string }[];
}

interface CsvRecord {
  line: number;
  fields: string[];
}

// Headers are compared after lowercasing and collapsing whitespace, because hand-edited exports
// turn up as "PSAP  Name" or "psap id".
const COLUMNS = {
  id: 'PSAP ID',
  name: 'PSAP Name',
  state: 'State',
  county: 'County',
  city: 'City',
  change: 'Type of Change',
} as const;

const REQUIRED = ['id', 'name', 'state'] as const;

export function parseFccPsapCsv(text: string): FccPsapCsvResult {
  const [header, ...records] = readCsv(text);
  const index = columnIndex(header?.fields ?? []);

  const rows: PsapImportRow[] = [];
  const skipped: FccPsapCsvResult['skipped'] = [];
  // One statement cannot upsert the same key twice, so duplicates are reported here, where the
  // line number still means something.
  const firstSeen = new Map<string, number>();

  for (const { line, fields } of records) {
    const value = (column: keyof typeof COLUMNS): string => {
      const i = index[column];
      return i === undefined ? '' : clean(fields[i] ?? '');
    };
    const fccPsapId = value('id');
    const name = value('name');
    const rawState = value('state');
    const state = rawState.toUpperCase();

    let reason: string | undefined;
    if (!fccPsapId) reason = 'missing PSAP ID';
    else if (!name) reason = 'missing PSAP Name';
    else if (!/^[A-Z]{2}$/.test(state)) {
      reason = `invalid State "${rawState}" (expected a 2-letter code)`;
    } else if (firstSeen.has(fccPsapId)) {
      reason = `duplicate PSAP ID ${fccPsapId} (first on line ${firstSeen.get(fccPsapId)})`;
    }
    if (reason) {
      skipped.push({ line, reason });
      continue;
    }

    firstSeen.set(fccPsapId, line);
    rows.push({
      fccPsapId,
      name,
      state,
      county: value('county') || null,
      city: value('city') || null,
      deleted: value('change').toLowerCase() === 'deleted',
    });
  }
  return { rows, skipped };
}

function columnIndex(headers: string[]): Partial<Record<keyof typeof COLUMNS, number>> {
  const positions = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = clean(h).toLowerCase();
    if (!positions.has(key)) positions.set(key, i);
  });

  const index: Partial<Record<keyof typeof COLUMNS, number>> = {};
  for (const [column, title] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, string][]) {
    const i = positions.get(title.toLowerCase());
    if (i !== undefined) index[column] = i;
  }

  const missing = REQUIRED.filter((column) => index[column] === undefined).map((c) => COLUMNS[c]);
  if (missing.length > 0) {
    const found = headers.map(clean).filter(Boolean).join(', ') || 'none';
    throw new Error(
      `FCC PSAP CSV is missing required column(s): ${missing.join(', ')} (found: ${found})`,
    );
  }
  return index;
}

// Collapsing internal whitespace keeps names searchable (the name index is on lower(name)) and
// folds away line breaks that a quoted field may carry.
function clean(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/**
 * A small RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks;
 * records end at LF, CRLF or a lone CR; a leading UTF-8 BOM is dropped; blank lines are
 * ignored. A quote that is not at the start of a field is kept as text, since registry names
 * like `5" Main St` appear unquoted in hand-edited files.
 */
function readCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let fieldQuoted = false;
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;
  let quoteLine = 1;

  const endField = (): void => {
    fields.push(field);
    field = '';
    fieldQuoted = false;
  };
  const endRecord = (): void => {
    endField();
    if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields });
    fields = [];
  };

  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const ch = text[i];
    const isBreak = ch === '\n' || (ch === '\r' && text[i + 1] !== '\n');
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        inQuotes = false;
      } else {
        field += ch;
        if (isBreak) line++;
      }
    } else if (ch === '"' && field === '' && !fieldQuoted) {
      inQuotes = true;
      fieldQuoted = true;
      quoteLine = line;
    } else if (ch === ',') {
      endField();
    } else if (ch === '\r' || ch === '\n') {
      if (isBreak) {
        endRecord();
        line++;
        recordLine = line;
      }
      // A CR followed by LF is skipped; the LF ends the record.
    } else {
      field += ch;
    }
  }

  // Without this check an unbalanced quote would silently swallow the rest of the file.
  if (inQuotes) {
    throw new Error(`FCC PSAP CSV has an unterminated quoted field on line ${quoteLine}`);
  }
  if (field !== '' || fieldQuoted || fields.length > 0) endRecord();
  return records;
}
