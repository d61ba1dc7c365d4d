export const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * A timestamp for an update: now, but strictly after `previous`, so that a change made in the
 * same millisecond as the create still moves `updated_at`.
 */
export function after(previous: string, now: number): string {
  const prev = Date.parse(previous);
  return iso(Number.isNaN(prev) ? now : Math.max(now, prev + 1));
}
