import { DAY, dayOfYear, HOUR, type LonLat, MINUTE, solarHour, sunElevation } from './geo.js';
import type { Rng } from './rng.js';

/**
 * The weather a device lives in: a climate by latitude and season with a day cycle, plus slow random
 * anomalies (Ornstein-Uhlenbeck processes) for temperature, pressure and cloud, advanced once per step.
 */
export class Weather {
  tempAnomaly: number;
  pressureAnomaly: number;
  cloud: number;

  constructor(private readonly rng: Rng) {
    this.tempAnomaly = rng.normal(0, 2);
    this.pressureAnomaly = rng.normal(0, 6);
    this.cloud = rng.range(0.1, 0.7);
  }

  step(dtMs: number): void {
    const ou = (x: number, tau: number, sd: number, mean = 0) =>
      x + ((mean - x) * dtMs) / tau + sd * Math.sqrt((2 * dtMs) / tau) * this.rng.normal();
    this.tempAnomaly = ou(this.tempAnomaly, 2 * DAY, 3);
    this.pressureAnomaly = ou(this.pressureAnomaly, 3 * DAY, 7);
    this.cloud = Math.max(0, Math.min(1, ou(this.cloud, 6 * HOUR, 0.3, 0.4)));
  }

  /** Air temperature at ground level, °C. */
  airTemperature(t: number, p: LonLat): number {
    const lat = Math.abs(p.lat);
    const annual = 28 - 0.55 * Math.max(0, lat - 12);
    const seasonalAmp = Math.min(24, 0.6 * Math.max(0, lat - 10));
    const phase = (2 * Math.PI * (dayOfYear(t) - 15)) / 365;
    const seasonal = -seasonalAmp * Math.cos(phase) * Math.sign(p.lat || 1);
    const daily = (4 + 3 * (1 - this.cloud)) * Math.cos((2 * Math.PI * (solarHour(t, p.lon) - 14.5)) / 24);
    return annual + seasonal + daily + this.tempAnomaly;
  }

  /** Sea surface temperature (lags the air by a month, never below freezing sea water). */
  seaTemperature(t: number, p: LonLat, depth: number): number {
    const lat = Math.abs(p.lat);
    const annual = 28 - 0.55 * Math.max(0, lat - 12);
    const seasonalAmp = Math.min(20, 0.55 * Math.max(0, lat - 10));
    const phase = (2 * Math.PI * (dayOfYear(t) - 45)) / 365;
    const surface = Math.max(-1.5, annual - seasonalAmp * Math.cos(phase) + 0.2 * this.tempAnomaly);
    // Summer stratification: colder below a thermocline at ~10 m.
    const strat = Math.max(0, surface - 8) * Math.min(1, Math.max(0, (depth - 5) / 15));
    return Math.max(-1.5, surface - 0.6 * strat);
  }

  /** Relative humidity %, high at night and low in the afternoon. */
  humidity(t: number, p: LonLat): number {
    const day = Math.cos((2 * Math.PI * (solarHour(t, p.lon) - 14.5)) / 24);
    return clamp(68 - 20 * day + 18 * (this.cloud - 0.4) - 1.5 * this.tempAnomaly, 15, 100);
  }

  /** Station pressure at altitude (m), hPa. */
  pressure(alt: number): number {
    const sea = 1013.25 + this.pressureAnomaly;
    return sea * Math.pow(1 - 2.25577e-5 * alt, 5.25588);
  }

  /** Irradiance as a fraction of clear-sky noon (0..1). */
  sunlight(t: number, p: LonLat): number {
    const el = sunElevation(t, p);
    if (el <= 0) return 0;
    return Math.pow(Math.sin((el * Math.PI) / 180), 1.15) * (1 - 0.75 * this.cloud);
  }

  /** Illuminance in lux: sun, twilight, moonless night. */
  lux(t: number, p: LonLat): number {
    const el = sunElevation(t, p);
    if (el > 0) return 120_000 * this.sunlight(t, p) + 400;
    if (el > -6) return 400 * Math.pow(10, el / 2); // civil twilight falls off steeply
    return 0.01;
  }
}

export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

export function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

/** Earth's field from a dipole approximation (µT) and the site's declination. */
export function magneticField(p: LonLat): { horizontal: number; vertical: number } {
  const lat = (p.lat * Math.PI) / 180;
  const total = 30.5 * Math.sqrt(1 + 3 * Math.sin(lat) ** 2) * 1.08;
  const incl = Math.atan(2 * Math.tan(lat));
  return { horizontal: total * Math.cos(incl), vertical: total * Math.sin(incl) };
}

export { MINUTE };
