/** Track segments are built per UTC day. */
export const DAY_MS = 86_400_000;

/** The distinct UTC days these fix times fall on, in ascending order. */
export function fixDays(times: Iterable<number>): number[] {
  const days = new Set<number>();
  for (const t of times) days.add(Math.floor(t / DAY_MS));
  return [...days].sort((a, b) => a - b);
}
