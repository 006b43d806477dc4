import { DAY } from './geo.js';
import type { MotionState } from './motion.js';
import type { PowerSpec } from './profiles.js';
import type { Rng } from './rng.js';

/**
 * Battery voltage. Solar tags: a Li-ion cell charged by the panel by day and drained by fixes, bursts and
 * uploads, read through a Li-ion curve 3.6-4.2 V (so the day shows a charge plateau and a night-time
 * decline). Primary cells (Li-SOCl2): a flat ~3.6 V sagging slowly with use and in the cold. Phones:
 * charged overnight at the station, drained by the tracking app by day.
 */
export class Power {
  soc: number;
  voltage: number;
  private readonly deployed: number;

  constructor(
    private readonly spec: PowerSpec,
    private readonly rng: Rng,
    start: number,
  ) {
    this.soc = rng.range(0.7, 0.95);
    this.deployed = start - rng.range(10, 180) * DAY;
    this.voltage = 3.9;
  }

  step(t: number, dtMs: number, sunlight: number, s: MotionState, airTemp: number): void {
    const dtH = dtMs / 3_600_000;
    const spec = this.spec;
    switch (spec.kind) {
      case 'solar': {
        const exposure = s.agl > 20 ? 1 : s.behaviour === 'rest' ? 0.7 : 0.85;
        this.soc = Math.min(1, Math.max(0.02, this.soc + spec.chargePerHour * sunlight * exposure * dtH - spec.idlePerHour * dtH));
        const charging = sunlight > 0.2 && this.soc < 1 ? 0.02 : 0;
        this.voltage = 3.6 + 0.6 * (0.55 * this.soc + 0.45 * this.soc ** 3) + charging + this.rng.normal(0, 0.004);
        break;
      }
      case 'battery': {
        const months = (t - this.deployed) / (30 * DAY);
        const cold = Math.max(0, 10 - airTemp) * 0.004;
        this.voltage = spec.fresh - spec.perMonth * months - cold + this.rng.normal(0, 0.003);
        break;
      }
      case 'phone': {
        const plugged = !s.tracking && s.behaviour === 'still' && s.canopy > 0.5;
        const rate = plugged ? 0.3 : s.tracking ? -0.09 : -0.015;
        this.soc = Math.min(1, Math.max(0.05, this.soc + rate * dtH));
        this.voltage = 3.45 + 0.75 * (0.5 * this.soc + 0.5 * this.soc ** 2) + (plugged && this.soc < 1 ? 0.05 : 0) + this.rng.normal(0, 0.005);
        break;
      }
    }
    this.voltage = Math.round(Math.min(4.25, Math.max(3.3, this.voltage)) * 1000) / 1000;
  }

  use(soc: number): void {
    if (this.spec.kind === 'solar') this.soc = Math.max(0.02, this.soc - soc);
  }
}
