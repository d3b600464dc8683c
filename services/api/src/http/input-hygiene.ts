/**
 * Characters no field of ours may carry: NUL, which Postgres cannot store in `text` (it answered
 * 500), and the other C0 controls except tab, line feed and carriage return, which only ever
 * arrive from fuzzers and would corrupt logs, CSV exports and e-mails.
 */
const forbidden = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The path of the first string (or object key) holding a forbidden character, if any. */
export function findControlCharacter(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return forbidden.test(value) ? path.join('.') : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findControlCharacter(item, [...path, String(index)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (forbidden.test(key)) return [...path, key].join('.');
      const found = findControlCharacter(item, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
