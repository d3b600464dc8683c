/**
 * One colour per caller of a multi-number session, in the order the callers were added. Distinct
 * from each other and from the map's greys; after twelve callers the palette repeats (the label,
 * the caller's number, still tells them apart).
 */
export const callerPalette = [
  '#1c7ed6',
  '#e8590c',
  '#2f9e44',
  '#ae3ec9',
  '#c2255c',
  '#0c8599',
  '#f08c00',
  '#5f3dc4',
  '#66a80f',
  '#d6336c',
  '#1864ab',
  '#a61e4d',
] as const;

/** Caller ids in the order they were added: known numbers first, then callers seen only by id. */
export function callerOrder(
  callerNumbers: Record<string, string>,
  callerIds: Iterable<string>,
): string[] {
  const ids = Object.keys(callerNumbers);
  const known = new Set(ids);
  for (const id of callerIds) if (!known.has(id)) ids.push(id);
  return ids;
}

export function callerColours(order: readonly string[]): Record<string, string> {
  const colours: Record<string, string> = {};
  order.forEach((id, index) => {
    colours[id] = callerPalette[index % callerPalette.length]!;
  });
  return colours;
}
