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
  const slopes = points.flatMap((a, i) =>
    points
      .slice(i + 1)
      .filter((b) => b.x !== a.x)
      .map((b) => (b.y - a.y) / (b.x - a.x)),
  );
  if (slopes.length === 0) throw new Error("a trend needs points at two different x");
  const xs = points.map((p) => p.x);
  return median(slopes) * (Math.max(...xs) - Math.min(...xs));
}

/** A figure read from several rounds: its median and its range. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error("no values to spread");
  return { median: median([...values]), min: Math.min(...values), max: Math.max(...values), rounds: values.length };
}

/**
 * Each round's figure over its baseline's in the same round: the ratio a row reports is their
 * median, with their range.
 */
export function roundRatios(measured: readonly number[], baseline: readonly number[]): Spread {
  if (measured.length !== baseline.length) {
    throw new Error(`${measured.length} rounds measured against ${baseline.length} of the baseline`);
  }
  return spread(measured.map((m, i) => m / baseline[i]));
}

/**
 * The order of round `round` (from 0): the sides as given in even rounds, reversed in odd ones
 * (A B, B A, A B, …), so that no side always runs first, or always right after the other.
 */
export function roundOrder<K>(sides: readonly K[], round: number): K[] {
  return round % 2 === 0 ? [...sides] : [...sides].reverse();
}

/**
 * Every ratio row's measurement: each side (the plugin, its baseline, …) measured once a round, in
 * `roundOrder`, for `rounds` rounds after `warmUp` rounds that are not kept. Never a phase of one
 * side and then a phase of the other: on a shared machine the speed moves between phases, and a
 * ratio of two phases measures that as much as the plugin. Returns every side's figures by round.
 */
export async function alternate<S extends Record<string, unknown>>(
  rounds: number,
  sides: { [K in keyof S]: () => Promise<S[K]> },
  { warmUp = 0 }: { warmUp?: number } = {},
): Promise<{ [K in keyof S]: Array<S[K]> }> {
  const names = Object.keys(sides) as Array<keyof S>;
  const figures = Object.fromEntries(names.map((name) => [name, []])) as unknown as { [K in keyof S]: Array<S[K]> };
  for (let round = 0; round < warmUp + rounds; round++) {
    for (const name of roundOrder(names, round)) {
      const figure = await sides[name]();
      if (round >= warmUp) figures[name].push(figure);
    }
  }
  return figures;
}
