// Figures read from several samples rather than from one.

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The run of median wall time (the lower middle of an even count): a whole run, so that its figures stay together. */
export function medianRun<T extends { wallMs: number }>(runs: readonly T[]): T {
  if (runs.length === 0) throw new Error("no runs to take the median of");
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
}

/**
 * How much y grows from the smallest x to the largest, along the median of the slopes between
 * every pair of points (the Theil–Sen estimate): a steady growth (a leak) shows in full, while a
 * single high or low reading, even the first or the last, moves it far less than it moves the
 * difference of the end readings.
 */
export function trendGrowth(points: ReadonlyArray<{ x: number; y: number }>): number {
  if (points.length < 2) throw new Error("a trend needs at least two points");
  const slopes = points.flatMap((a, i) => points.slice(i + 1).filter((b) => b.x !== a.x).map((b) => (b.y - a.y) / (b.x - a.x)));
  if (slopes.length === 0) throw new Error("a trend needs points at two different x");
  const xs = points.map((p) => p.x);
  return median(slopes) * (Math.max(...xs) - Math.min(...xs));
}
