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
 *
 * The receiver tracks a number of satellites that varies around the sky's (a normal "latent" count);
 * below four it cannot solve a position and the attempt fails (`null`), so the counts it does report
 * start at four with a tail, not a pile-up there. Fitted to the real Movebank files in shared/data:
 * gulls and oystercatchers report 4 satellites on 14-15 % of their fixes, 5-7 on 60-63 %, and a DOP
 * of about 5.0 at 4 satellites, 3.3 at 5, 2.6 at 6, 2.2 at 7, 1.8 at 8 and 1.6 at 10 (median 2.5).
 */
export function fixQuality(rng: Rng, meanSats: number, sdSats: number, canopy: number): FixQuality | null {
  const latent = rng.normal(meanSats - 1.8 * canopy, sdSats);
  if (latent < 3.5) return null;
  const sats = Math.min(24, Math.round(latent));
  const hdop = Math.round((0.8 + 6.3 / (sats - 2.5)) * Math.exp(rng.normal(0, 0.28)) * 10) / 10;
  const vdop = Math.round(hdop * rng.range(1.3, 1.9) * 10) / 10;
  return { sats, hdop, vdop, grade: gradeOf(hdop, sats), sigmaH: hdop * 2.6, sigmaV: vdop * 4 };
}

/** A poor fix: few satellites, high DOP, grade N, errors of hundreds of metres. */
export function badQuality(rng: Rng): FixQuality {
  const sats = rng.int(3, 5);
  const hdop = Math.round(rng.range(10, 28) * 10) / 10;
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
