/**
 * True when `--only` names the bench `name` (`--only name` or `--only=name`): the side benches
 * (caller page, metrics, Overwatch, scale-out) run alone, never with the realtime pipelines.
 */
export function onlyNames(argv: string[], name: string): boolean {
  return argv.some(
    (arg, i) => arg === `--only=${name}` || (arg === '--only' && argv[i + 1] === name),
  );
}
