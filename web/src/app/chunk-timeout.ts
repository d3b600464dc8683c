/** SPEC.md §8, §9: loading a script chunk gives up after 120 seconds. */
export const chunkLoadTimeoutMs = 120_000;

/** A chunk's import, failing once SPEC.md's chunk timeout has passed. */
export function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('The page took too long to load.')),
      chunkLoadTimeoutMs,
    );
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
