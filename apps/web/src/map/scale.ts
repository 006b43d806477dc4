/**
 * A scale bar's length: the longest round distance (1, 2 or 5 × 10ⁿ metres) that fits in `maxMetres`,
 * and its text. The globe's distance legend uses it; MapLibre's ScaleControl rounds the same way.
 */
export function niceDistance(maxMetres: number): { metres: number; label: string } | null {
  if (!Number.isFinite(maxMetres) || maxMetres <= 0) return null;
  const power = 10 ** Math.floor(Math.log10(maxMetres));
  const step = [5, 3, 2, 1].find((m) => m * power <= maxMetres) ?? 1;
  const metres = step * power;
  const label = metres >= 1000 ? `${metres / 1000} km` : metres >= 1 ? `${metres} m` : `${Number(metres.toPrecision(1))} m`;
  return { metres, label };
}
