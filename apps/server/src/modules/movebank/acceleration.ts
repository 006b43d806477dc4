import { DEFAULT_SCALE } from '../../ingest/decode.js';

// Pure helpers of the acceleration import: the burst's axes, its rate, its calibration, its extras.

export const INT16 = (v: number) => Number.isInteger(v) && v >= -32768 && v <= 32767;

export function axisLetters(text: string): string | undefined {
  const a = text.trim().toUpperCase();
  return /^[XYZ]{1,3}$/.test(a) && new Set(a).size === a.length ? a : undefined;
}

/** The per-axis linear calibration g = (raw - offset) * scale that fits the source's calibrated values best. */
export function fitAxis(raw: number[], g: number[]): { scale: number; offset: number; residual: number } {
  const n = raw.length;
  let mr = 0;
  let mg = 0;
  for (let i = 0; i < n; i++) {
    mr += raw[i]!;
    mg += g[i]!;
  }
  mr /= n;
  mg /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (raw[i]! - mr) ** 2;
    sxy += (raw[i]! - mr) * (g[i]! - mg);
  }
  let scale = sxx > 0 ? sxy / sxx : DEFAULT_SCALE;
  // a constant raw value fits any scale: keep the usual one and place the offset to match
  if (!Number.isFinite(scale) || scale === 0) scale = DEFAULT_SCALE;
  const offset = mr - mg / scale;
  const residualOf = (sc: number, off: number) => {
    let r = 0;
    for (let i = 0; i < n; i++) r = Math.max(r, Math.abs((raw[i]! - off) * sc - g[i]!));
    return r;
  };
  const residual = residualOf(scale, offset);
  // Tags calibrate with whole-count offsets and 1/(whole counts per g) scales; the fit lands a rounding
  // error away from them. Keep the round figures when they fit as well.
  const snapped = { scale: 1 / Math.round(1 / scale), offset: Math.round(offset) };
  const snappedResidual = residualOf(snapped.scale, snapped.offset);
  if (Number.isFinite(snapped.scale) && snappedResidual <= residual + 1e-12) return { ...snapped, residual: snappedResidual };
  return { scale, offset, residual };
}

/** Samples per second from the sample times, snapped to a whole number within the timestamps' 1 ms resolution. */
export function rateOf(times: number[]): number {
  const span = times[times.length - 1]! - times[0]!;
  if (times.length < 2 || span <= 0) return 0;
  const hz = ((times.length - 1) * 1000) / span;
  return Math.abs(hz - Math.round(hz)) <= hz / span ? Math.round(hz) : Math.round(hz * 100) / 100;
}

/** Columns whose value is the same on every sample stay single values; the others become arrays. */
export function mergeExtras(extras: (Record<string, unknown> | null)[]): Record<string, unknown> {
  const keys = new Set<string>();
  for (const e of extras) if (e) for (const k of Object.keys(e)) keys.add(k);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const values = extras.map((e) => (e && k in e ? e[k] : null));
    out[k] = values.every((v) => v === values[0]) ? values[0] : values;
  }
  return out;
}

/**
 * Standard gravity, m/s² per g. Movebank's acceleration-x/y/z are in m/s² (its attribute dictionary);
 * a burst's calibrated values are in g (tilt-x/y/z, UvA-BiTS' calibrated values, are in g already).
 */
export const STANDARD_GRAVITY = 9.80665;
