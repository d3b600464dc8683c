/**
 * Characters no field of ours may carry: NUL, which Postgres cannot store in `text` (it answered
 * 500), and the other C0 controls except tab, line feed and carriage return, which only ever
 * arrive from fuzzers and would corrupt logs, CSV exports and e-mails.
 */
const forbidden = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A value still to look at, with the key it sits under and its parent, for the path. */
interface Visit {
  value: unknown;
  key: string | undefined;
  parent: Visit | undefined;
  /** The key is an object's (checked), not an array's index. */
  isKey?: boolean;
}

function pathOf(visit: Visit | undefined): string {
  const keys: string[] = [];
  for (let at = visit; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * The path of the first string (or object key) holding a forbidden character, if any. Walks
 * with a stack of its own, not by recursion: a JSON body nested a few thousand levels deep (a
 * few kilobytes) overflowed the call stack and answered 500 (found by tests/fuzz).
 */
export function findControlCharacter(value: unknown, path: string[] = []): string | undefined {
  const prefix = (found: string) => [...path, ...(found ? [found] : [])].join('.');
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    // An object's key is checked just before its value, as the recursive walk did.
    if (visit.key !== undefined && visit.isKey && forbidden.test(visit.key))
      return prefix(pathOf(visit));
    const current = visit.value;
    if (typeof current === 'string') {
      if (forbidden.test(current)) return prefix(pathOf(visit));
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const entries: [string, unknown][] = Array.isArray(current)
      ? current.map((item, index) => [String(index), item])
      : Object.entries(current);
    // Pushed last first, so that the first entry is looked at first, as before.
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, item] = entries[index]!;
      stack.push({ value: item, key, parent: visit, isKey: !Array.isArray(current) });
    }
  }
  return undefined;
}
