import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';

/**
 * Seeded random numbers on pure-rand's xoroshiro128+. Each aspect of a device (movement, GNSS noise,
 * weather, bursts, media...) draws from its own stream, made by jumping the generator, so that changing
 * the fix schedule does not change the path the animal walks.
 */
export class Rng {
  private readonly g: JumpableRandomGenerator;
  private spare: number | null = null;

  constructor(seed: number, stream = 0) {
    this.g = xoroshiro128plus(seed | 0);
    for (let i = 0; i < stream; i++) this.g.jump();
  }

  /** Uniform in [0, 1), 53 bits. */
  float(): number {
    const a = this.g.next() & 0x3ffffff;
    const b = this.g.next() & 0x7ffffff;
    return a * 1.4901161193847656e-8 + b * 1.1102230246251565e-16;
  }

  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.float();
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Standard normal (Marsaglia polar method). */
  normal(mean = 0, sd = 1): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return mean + sd * s;
    }
    let u: number, v: number, q: number;
    do {
      u = this.float() * 2 - 1;
      v = this.float() * 2 - 1;
      q = u * u + v * v;
    } while (q >= 1 || q === 0);
    const f = Math.sqrt((-2 * Math.log(q)) / q);
    this.spare = v * f;
    return mean + sd * u * f;
  }

  exponential(mean: number): number {
    return -mean * Math.log(1 - this.float());
  }
}

/** The streams a device draws from; the numbers are part of the determinism contract. */
export const Stream = { itinerary: 0, motion: 1, gnss: 2, weather: 3, acc: 4, media: 5, power: 6, schedule: 7, field: 8, coverage: 9 } as const;

/** A 32-bit seed from any string (FNV-1a), e.g. an IMEI. */
export function seedFrom(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
