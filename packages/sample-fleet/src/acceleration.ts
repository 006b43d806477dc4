import { type Burst, packSamples } from '@wildtrack/contract';
import type { AccSpec, Behaviour } from './profiles.js';
import type { Rng } from './rng.js';

/**
 * Acceleration bursts as a tri-axial logger records them: raw 12-bit counts around an offset, per axis
 * X (surge, forward), Y (sway, sideways), Z (heave, up). Each behaviour has a posture (the static, gravity
 * part) and a rhythm (the dynamic part): wingbeats, steps, flipper strokes. ODBA, the summed absolute
 * dynamic acceleration, follows from it: ~0.03 g at rest, ~0.3 g walking, ~1 g flapping flight.
 */

interface Pattern {
  /** Rhythm, Hz (0 = none). */
  freq: number;
  /** Amplitudes of the rhythm per axis, g. */
  surge: number;
  sway: number;
  heave: number;
  /** Posture, degrees (pitch nose-up positive; roll right-wing-down positive, either side). */
  pitch: number;
  roll: number;
  /** White noise, g (turbulence, fidgeting, sensor). */
  noise: number;
}

const PATTERNS: Record<Behaviour, Pattern> = {
  rest: { freq: 0, surge: 0, sway: 0, heave: 0, pitch: 4, roll: 0, noise: 0.012 },
  forage: { freq: 1.4, surge: 0.12, sway: 0.07, heave: 0.2, pitch: -35, roll: 0, noise: 0.045 },
  walk: { freq: 1.8, surge: 0.15, sway: 0.1, heave: 0.3, pitch: -5, roll: 0, noise: 0.04 },
  run: { freq: 3, surge: 0.45, sway: 0.25, heave: 1, pitch: 5, roll: 0, noise: 0.1 },
  flap: { freq: 2.6, surge: 0.35, sway: 0.08, heave: 1.05, pitch: 8, roll: 0, noise: 0.06 },
  soar: { freq: 0, surge: 0, sway: 0, heave: 0, pitch: 3, roll: 22, noise: 0.08 },
  swim: { freq: 1.1, surge: 0.15, sway: 0.35, heave: 0.1, pitch: 0, roll: 0, noise: 0.05 },
  surface: { freq: 0.25, surge: 0.03, sway: 0.05, heave: 0.08, pitch: 10, roll: 0, noise: 0.03 },
  still: { freq: 0, surge: 0, sway: 0, heave: 0, pitch: 0, roll: 0, noise: 0.004 },
  carried: { freq: 1.9, surge: 0.12, sway: 0.08, heave: 0.25, pitch: 80, roll: 0, noise: 0.05 },
};

/** Mean ODBA (g) a behaviour gives: 2/π of each sine amplitude plus the mean |noise| of three axes. */
export const EXPECTED_ODBA: Record<Behaviour, number> = Object.fromEntries(
  Object.entries(PATTERNS).map(([b, p]) => [b, (2 / Math.PI) * (p.surge + p.sway + p.heave) + 3 * 0.8 * p.noise]),
) as Record<Behaviour, number>;

const RAD = Math.PI / 180;

/** Synthesises one XYZ burst starting at t. */
export function makeBurst(t: number, behaviour: Behaviour, spec: AccSpec, hz: number, rng: Rng): Burst {
  const p = PATTERNS[behaviour];
  const n = Math.max(1, Math.round(hz * spec.seconds));
  const f = p.freq * rng.range(0.9, 1.1);
  const amp = rng.range(0.8, 1.2);
  const phase = rng.range(0, 2 * Math.PI);
  const pitch = (p.pitch + rng.normal(0, 5)) * RAD;
  const roll = (p.roll * (rng.chance(0.5) ? 1 : -1) + rng.normal(0, 4)) * RAD;
  const gx = -Math.sin(pitch);
  const gy = Math.cos(pitch) * Math.sin(roll);
  const gz = Math.cos(pitch) * Math.cos(roll);
  const raw = new Int16Array(n * 3);
  const twitch = behaviour === 'rest' && rng.chance(0.15) ? rng.int(0, n - 1) : -1;
  for (let i = 0; i < n; i++) {
    const w = 2 * Math.PI * f * (i / hz) + phase;
    const kick = i === twitch ? rng.normal(0, 0.4) : 0;
    const g = [
      gx + amp * p.surge * Math.sin(w + Math.PI / 2) + rng.normal(0, p.noise) + kick,
      gy + amp * p.sway * Math.sin(w / 2) + rng.normal(0, p.noise),
      gz + amp * p.heave * (Math.sin(w) + 0.25 * Math.sin(2 * w)) + rng.normal(0, p.noise) + kick,
    ];
    for (let a = 0; a < 3; a++) {
      raw[i * 3 + a] = Math.max(0, Math.min(4095, Math.round(spec.offset[a]! + g[a]! / spec.scale[a]!)));
    }
  }
  return { t, hz, axes: 'XYZ', samples: packSamples(raw), scale: [...spec.scale], offset: [...spec.offset] };
}

/** Unpacks a burst's base64 little-endian int16 samples. */
export function unpackSamples(samples: string): Int16Array {
  const bin = atob(samples);
  const out = new Int16Array(bin.length / 2);
  for (let i = 0; i < out.length; i++) {
    const v = bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8);
    out[i] = v >= 0x8000 ? v - 0x10000 : v;
  }
  return out;
}

/** Mean ODBA of a burst, g: per sample, the sum over axes of |calibrated - burst mean|. */
export function burstOdba(b: Burst): number {
  const raw = unpackSamples(b.samples);
  const axes = b.axes.length;
  const n = raw.length / axes;
  const scale = b.scale ?? Array<number>(axes).fill(0.0027);
  const off = b.offset ?? Array<number>(axes).fill(2048);
  const mean = new Array<number>(axes).fill(0);
  for (let i = 0; i < n; i++) for (let a = 0; a < axes; a++) mean[a]! += ((raw[i * axes + a]! - off[a]!) * scale[a]!) / n;
  let sum = 0;
  for (let i = 0; i < n; i++) for (let a = 0; a < axes; a++) sum += Math.abs((raw[i * axes + a]! - off[a]!) * scale[a]! - mean[a]!);
  return sum / n;
}
