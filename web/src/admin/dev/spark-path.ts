export const WIDTH = 160;
export const HEIGHT = 36;
/** Room for the stroke at the top and bottom, so a flat line at zero or at the peak shows whole. */
export const PAD = 2;

export interface SparkPoint {
  /** Epoch milliseconds. */
  at: number;
  /** Null: not measured then (a gap in the line). */
  value: number | null;
}

/**
 * The SVG path of a series: x by time from the first sample to the last, y from zero to the
 * series' peak. A missing value breaks the line instead of drawing it down to zero.
 */
export function sparkPath(points: readonly SparkPoint[]): string {
  const measured = points.filter((point) => point.value !== null);
  if (measured.length === 0) return '';
  const first = points[0]!.at;
  const span = Math.max(1, points[points.length - 1]!.at - first);
  const peak = Math.max(...measured.map((point) => point.value!), 0);
  const x = (at: number) => ((at - first) / span) * WIDTH;
  const y = (value: number) =>
    peak <= 0 ? HEIGHT - PAD : HEIGHT - PAD - (value / peak) * (HEIGHT - 2 * PAD);
  let path = '';
  let drawing = false;
  for (const point of points) {
    if (point.value === null) {
      drawing = false;
      continue;
    }
    path += `${drawing ? 'L' : 'M'}${x(point.at).toFixed(1)} ${y(point.value).toFixed(1)}`;
    drawing = true;
  }
  return path;
}
