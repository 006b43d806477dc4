import type { Rng } from './rng.js';

export interface FixQuality {
  sats: number;
  hdop: number;
  vdop: number;
  /** 1..5 = A..E, 6..7 = N (§9). */
  grade: number;
  /** 1-sigma horizontal and vertical error, m. */
  sigmaH: number;
  sigmaV: number;
}

/**
 * Satellites, dilution of precision and the precision grade, correlated the way receivers report them:
 * more satellites give a lower HDOP, a lower HDOP a better grade and a smaller error. Canopy (forest,
 * dens, indoors) hides satellites.
 */
export function fixQuality(rng: Rng, meanSats: number, sdSats: number, canopy: number): FixQuality {
  const sats = Math.max(4, Math.min(24, Math.round(rng.normal(meanSats - 4 * canopy, sdSats))));
  const hdop = Math.round((0.55 + 5.2 / (sats - 2.2)) * Math.exp(rng.normal(0, 0.18)) * 10) / 10;
  const vdop = Math.round(hdop * rng.range(1.3, 1.9) * 10) / 10;
  return { sats, hdop, vdop, grade: gradeOf(hdop, sats), sigmaH: hdop * 2.6, sigmaV: vdop * 4 };
}

/** A poor fix: few satellites, high DOP, grade D..N, errors of hundreds of metres. */
export function badQuality(rng: Rng): FixQuality {
  const sats = rng.int(3, 5);
  const hdop = Math.round(rng.range(6, 28) * 10) / 10;
  const vdop = Math.round(hdop * rng.range(1.4, 2.2) * 10) / 10;
  return { sats, hdop, vdop, grade: gradeOf(hdop, sats), sigmaH: rng.range(150, 1500), sigmaV: rng.range(40, 400) };
}

export function gradeOf(hdop: number, sats: number): number {
  if (sats < 4) return 7;
  if (hdop < 1.3) return 1;
  if (hdop < 2) return 2;
  if (hdop < 3.5) return 3;
  if (hdop < 6) return 4;
  if (hdop < 10) return 5;
  return 6;
}
