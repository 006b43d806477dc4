import fs from 'node:fs';
import { once } from 'node:events';

/**
 * PDM (the 1-bit pulse-density stream of a MEMS microphone, at the device's PDM clock) to 16-bit PCM WAV.
 *
 * Written here rather than taken from npm: no maintained package decimates PDM (the few "pdm" packages are
 * unrelated, and the DSP libraries offer FIR design or resampling of PCM, not a bit-level CIC), and the
 * filter below is ~200 lines. The stream format is the devices' (docs/ingest.md, packages/sample-fleet):
 * 8 samples a byte, earliest in the most significant bit, 1 = +full scale, mono.
 *
 * Two stages, as a decimating PDM microphone interface does it in hardware:
 * 1. A CIC decimator of order 4 by R (to about twice the output rate). A CIC is a cascade of N moving
 *    sums of length R, i.e. the FIR whose kernel is a box convolved with itself N times (integer taps, gain
 *    R^N). On 1-bit input that FIR is evaluated a byte at a time from lookup tables (each byte of the
 *    window adds its precomputed share), which gives exactly the CIC's integer output with 1/8 of the
 *    operations of running the integrators bit by bit.
 * 2. A polyphase FIR low-pass (Kaiser-windowed, designed here) that removes the shaped quantisation noise
 *    and the CIC's aliases above the output band, compensates the CIC's passband droop (its design target
 *    is 1/H_cic up to the passband edge) and resamples by L/M to the output rate. When the CIC's output is
 *    exactly twice the output rate (512 kHz -> 16 kHz), the same band edges are met by a half-band FIR
 *    (half its taps are zero) followed by a 9-tap droop compensator at the output rate (designHalfBand).
 * Input is taken in chunks; memory is the (shared, cached) tables and the current chunk, whatever the length.
 */

export const CIC_ORDER = 4;
/** Passband edge and stopband start of the output, as fractions of the output rate. */
const PASS = 0.4;
const STOP = 0.6;
/** Stopband attenuation the FIR is designed for (dB). */
const ATTENUATION_DB = 72;
/** The most polyphase branches a plan may use (an output rate that is no simple fraction of the PDM clock needs many). */
const MAX_PHASES = 256;

export class PdmRateError extends Error {}

export interface DecimationPlan {
  pdmRate: number;
  outRate: number;
  /** CIC decimation factor and order. */
  cicFactor: number;
  cicOrder: number;
  /** The FIR stage resamples the CIC's output by up / down. */
  up: number;
  down: number;
  /** The FIR's taps per polyphase branch (for a half-band plan: the length of the cascade's equivalent FIR). */
  tapsPerPhase: number;
  /** Decimation by 2 run as a half-band FIR then a droop compensator: their multiplies an output (folded), else undefined. */
  halfBand?: { halfBandTaps: number; compensatorTaps: number };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** How to get from the PDM clock to the output rate: the CIC factor and the FIR's L/M (PdmRateError when no plan fits). */
export function planDecimation(pdmRate: number, outRate: number): DecimationPlan {
  if (!Number.isInteger(pdmRate) || !Number.isInteger(outRate) || outRate < 1000 || pdmRate < 16 * outRate) {
    throw new PdmRateError(`a PDM clock of ${pdmRate} Hz cannot give ${outRate} Hz PCM (it must be at least 16 times the output rate)`);
  }
  // The CIC takes the rate down to about twice the output (its aliases then fall where its nulls are
  // deep); among factors near that, the one whose remaining ratio needs the fewest FIR branches.
  const rMax = Math.floor(pdmRate / (2 * outRate));
  let best: { r: number; up: number; down: number } | undefined;
  for (let r = rMax; r >= Math.max(1, Math.ceil(rMax / 2)); r--) {
    const g = gcd(outRate * r, pdmRate);
    const up = (outRate * r) / g;
    const down = pdmRate / g;
    if (up <= MAX_PHASES && (!best || up < best.up)) best = { r, up, down };
    if (up === 1) break;
  }
  if (!best) throw new PdmRateError(`${outRate} Hz is no simple fraction of the ${pdmRate} Hz PDM clock`);
  const design = designFir(pdmRate, outRate, best.r, CIC_ORDER, best.up);
  const hb = design.halfBand;
  return {
    pdmRate,
    outRate,
    cicFactor: best.r,
    cicOrder: CIC_ORDER,
    up: best.up,
    down: best.down,
    tapsPerPhase: design.tapsPerPhase,
    ...(hb && { halfBand: { halfBandTaps: 2 * hb.odd.length + 1, compensatorTaps: 2 * hb.comp.length - 1 } }),
  };
}

/** |H(f)| of a CIC of order n decimating by r at input rate fs, normalised to 1 at DC. */
export function cicResponse(f: number, fs: number, r: number, n: number): number {
  if (f === 0) return 1;
  const x = (Math.PI * f) / fs;
  return Math.abs(Math.sin(r * x) / (r * Math.sin(x))) ** n;
}

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

interface FirDesign {
  /** The whole FIR at the upsampled rate, by branch (for a half-band plan: the cascade's equivalent FIR). */
  phases: Float64Array;
  tapsPerPhase: number;
  center: number;
  /** Set when the FIR decimates by exactly 2 (see designHalfBand): run as a half-band then a short compensator. */
  halfBand?: { odd: Float64Array; c: number; comp: Float64Array };
}

const designs = new Map<string, FirDesign>();

/**
 * The FIR at the upsampled rate (the CIC's output rate × up): the ideal response (1/H_cic in the
 * passband, a raised-cosine fall to 0 at the stopband edge) integrated to taps, times a Kaiser window.
 * Laid out by branch: phases[p * T + k] = h[p + k * up].
 */
function designFir(pdmRate: number, outRate: number, r: number, order: number, up: number): FirDesign {
  const key = `${pdmRate}/${outRate}/${r}/${order}/${up}`;
  const known = designs.get(key);
  if (known) return known;
  const midRate = pdmRate / r;
  if (up === 1 && midRate === 2 * outRate && PASS + STOP === 1) {
    const d = designHalfBand(pdmRate, outRate, r, order);
    designs.set(key, d);
    return d;
  }
  const fu = midRate * up;
  const fp = PASS * outRate;
  const fst = Math.min(STOP * outRate, midRate / 2);
  const beta = 0.1102 * (ATTENUATION_DB - 8.7);
  let length = Math.ceil((ATTENUATION_DB - 7.95) / (2.285 * ((2 * Math.PI * (fst - fp)) / fu))) + 1;
  if (length % 2 === 0) length++;
  const center = (length - 1) / 2;
  // The desired response sampled finely over [0, fst]; trapezoidal integration of D(f) cos(2πf(n-c)/fu).
  const steps = 2048;
  const df = fst / steps;
  const want = new Float64Array(steps + 1);
  for (let i = 0; i <= steps; i++) {
    const f = i * df;
    want[i] = f <= fp ? 1 / cicResponse(f, pdmRate, r, order) : (0.5 + 0.5 * Math.cos((Math.PI * (f - fp)) / (fst - fp))) / cicResponse(fp, pdmRate, r, order);
  }
  const h = new Float64Array(length);
  const i0b = besselI0(beta);
  for (let n = 0; n < length; n++) {
    const w = (2 * Math.PI * (n - center)) / fu;
    let acc = 0;
    for (let i = 0; i <= steps; i++) acc += (i === 0 || i === steps ? 0.5 : 1) * want[i]! * Math.cos(w * i * df);
    const u = (n - center) / center;
    h[n] = ((2 * acc * df) / fu) * up * (besselI0(beta * Math.sqrt(Math.max(0, 1 - u * u))) / i0b);
  }
  // DC gain exactly `up` (each branch then passes DC at gain 1).
  let sum = 0;
  for (const v of h) sum += v;
  for (let n = 0; n < length; n++) h[n] = (h[n]! * up) / sum;
  const tapsPerPhase = Math.ceil(length / up);
  const phases = new Float64Array(up * tapsPerPhase);
  for (let p = 0; p < up; p++) for (let k = 0; k < tapsPerPhase; k++) phases[p * tapsPerPhase + k] = p + k * up < length ? h[p + k * up]! : 0;
  const d = { phases, tapsPerPhase, center };
  designs.set(key, d);
  return d;
}

/** Taps a side of the droop compensator that follows a half-band (2·4 + 1 = 9 in all). */
const COMP_TAPS_HALF = 4;

/**
 * When the CIC's output is exactly twice the output rate (the usual case: 512 kHz -> 16 kHz by 16 then 2),
 * the band edges PASS and STOP lie symmetrically about a quarter of the CIC's rate, which is what a
 * half-band filter does: a Kaiser-windowed sinc cut at that quarter has every even tap but the centre zero,
 * so it costs half the multiplies of a general FIR of the same length and stopband. A half-band's response
 * is fixed (H(f) + H(fs/2 - f) = 1), so it cannot also undo the CIC's droop; that is a short symmetric FIR
 * after the decimation (2·COMP_TAPS_HALF + 1 taps at the output rate, least-squares fit of
 * 1/(H_cic·H_halfband) over the passband, error ~0.3 %). The cascade equals one FIR of length
 * 2(c + 2K) + 1 at the CIC's rate, which is what `phases` holds and the streaming bookkeeping uses.
 */
function designHalfBand(pdmRate: number, outRate: number, r: number, order: number): FirDesign {
  const midRate = pdmRate / r;
  const fp = PASS * outRate;
  const fst = STOP * outRate;
  const beta = 0.1102 * (ATTENUATION_DB - 8.7);
  const length = Math.ceil((ATTENUATION_DB - 7.95) / (2.285 * ((2 * Math.PI * (fst - fp)) / midRate))) + 1;
  let c = (length - 1) >> 1;
  if (c % 2 === 0) c++;
  const i0b = besselI0(beta);
  const odd = new Float64Array((c + 1) >> 1);
  let sum = 0;
  for (let j = 0; j < odd.length; j++) {
    const k = 2 * j + 1;
    const u = k / c;
    odd[j] = (Math.sin((Math.PI * k) / 2) / (Math.PI * k)) * (besselI0(beta * Math.sqrt(Math.max(0, 1 - u * u))) / i0b);
    sum += odd[j]!;
  }
  // DC gain exactly 1: the centre 1/2 and the odd taps 1/4 a side.
  for (let j = 0; j < odd.length; j++) odd[j] = (odd[j]! * 0.25) / sum;
  const hb = (f: number) => {
    let a = 0.5;
    for (let j = 0; j < odd.length; j++) a += 2 * odd[j]! * Math.cos((2 * Math.PI * f * (2 * j + 1)) / midRate);
    return a;
  };
  // Compensator g[0..K] (symmetric, G(f) = g0 + 2 Σ gk cos(2πfk/out)): least squares of G·H_cic·H_hb - 1 over [0, fp].
  const K = COMP_TAPS_HALF;
  const N = K + 1;
  const a = Array.from({ length: N }, () => new Float64Array(N + 1));
  const grid = 512;
  for (let i = 0; i <= grid; i++) {
    const f = (fp * i) / grid;
    const w = cicResponse(f, pdmRate, r, order) * hb(f);
    const row = new Float64Array(N);
    for (let k = 0; k < N; k++) row[k] = w * (k === 0 ? 1 : 2 * Math.cos((2 * Math.PI * f * k) / outRate));
    for (let p = 0; p < N; p++) {
      for (let q = 0; q < N; q++) a[p]![q]! += row[p]! * row[q]!;
      a[p]![N]! += row[p]!;
    }
  }
  for (let p = 0; p < N; p++) {
    for (let q = p + 1; q < N; q++) {
      const m = a[q]![p]! / a[p]![p]!;
      for (let t = p; t <= N; t++) a[q]![t]! -= m * a[p]![t]!;
    }
  }
  const comp = new Float64Array(N);
  for (let p = N - 1; p >= 0; p--) {
    let v = a[p]![N]!;
    for (let q = p + 1; q < N; q++) v -= a[p]![q]! * comp[q]!;
    comp[p] = v / a[p]![p]!;
  }
  // The equivalent single FIR: the half-band convolved with the compensator upsampled by 2.
  const center = c + 2 * K;
  const phases = new Float64Array(2 * center + 1);
  const hAt = (k: number) => (k === 0 ? 0.5 : k % 2 === 0 || Math.abs(k) > c ? 0 : odd[(Math.abs(k) - 1) >> 1]!);
  for (let k = -K; k <= K; k++) for (let i = -c; i <= c; i++) phases[center + 2 * k + i]! += comp[Math.abs(k)]! * hAt(i);
  return { phases, tapsPerPhase: phases.length, center, halfBand: { odd, c, comp } };
}

/** The CIC's integer kernel (a box of length r convolved with itself `order` times). */
function cicKernel(r: number, order: number): Int32Array {
  let k = new Int32Array([1]);
  for (let s = 0; s < order; s++) {
    const next = new Int32Array(k.length + r - 1);
    for (let i = 0; i < k.length; i++) for (let j = 0; j < r; j++) next[i + j]! += k[i]!;
    k = next;
  }
  return k;
}

/** How many PCM samples a stream of `bits` PDM samples gives under a plan (known before converting: the WAV header comes first). */
export function pcmLength(bits: number, plan: DecimationPlan): number {
  const kernel = plan.cicOrder * (plan.cicFactor - 1) + 1;
  const cicOut = bits >= kernel ? Math.floor((bits - kernel) / plan.cicFactor) + 1 : 0;
  return Math.ceil((cicOut * plan.up) / plan.down);
}

/** A CIC's byte lookup tables (immutable, shared by every decimator of the same factor and order). */
interface CicTables {
  kernelBits: number;
  span: number;
  spans: Int32Array;
  table: Int32Array;
  wide: Int32Array | undefined;
}

const cicTableCache = new Map<string, CicTables>();

/**
 * The tables a decimator reads its CIC from, made once per (r, order): for r = 16 the two-byte table alone
 * is 1 MB, which each conversion used to build again and leave to the garbage collector (a batch of 100
 * recordings grew the process by ~10 MB before it was collected).
 */
function cicTables(r: number, n: number): CicTables {
  const key = `${r}/${n}`;
  const cached = cicTableCache.get(key);
  if (cached) return cached;
  const kernel = cicKernel(r, n);
  const span = Math.ceil((7 + kernel.length) / 8);
  const spans = new Int32Array(8);
  const table = new Int32Array(8 * span * 256);
  for (let shift = 0; shift < 8; shift++) {
    spans[shift] = Math.ceil((shift + kernel.length) / 8);
    for (let j = 0; j < span; j++) {
      for (let byte = 0; byte < 256; byte++) {
        let acc = 0;
        for (let b = 0; b < 8; b++) {
          const k = j * 8 + b - shift;
          if (k >= 0 && k < kernel.length) acc += byte & (0x80 >> b) ? kernel[k]! : -kernel[k]!;
        }
        table[(shift * span + j) * 256 + byte] = acc;
      }
    }
  }
  let wide: Int32Array | undefined;
  if (r % 8 === 0) {
    // Windows start on byte boundaries (shift 0): tables of two bytes at a time, half the lookups.
    const pairs = Math.ceil(spans[0]! / 2);
    wide = new Int32Array(pairs << 16);
    for (let j = 0; j < pairs; j++) {
      const t0 = j * 2 * 256;
      for (let hi = 0; hi < 256; hi++) {
        const a = table[t0 + hi]!;
        for (let lo = 0; lo < 256; lo++) wide[(j << 16) | (hi << 8) | lo] = a + (2 * j + 1 < span ? table[t0 + 256 + lo]! : 0);
      }
    }
  }
  const made = { kernelBits: kernel.length, span, spans, table, wide };
  cicTableCache.set(key, made);
  return made;
}

/**
 * The converter: push() packed PDM bytes as they come, end() once; each returns the int16 samples it
 * completed. Exactly pcmLength(bytes * 8) samples in all.
 */
export class PdmDecimator {
  readonly plan: DecimationPlan;
  private readonly r: number;
  private readonly kernelBits: number;
  /** Bytes a window spans at each bit offset, and the tables: table[((shift * span) + j) * 256 + byte]. */
  private readonly span: number;
  private readonly spans: Int32Array;
  private readonly table: Int32Array;
  private readonly scale: number;
  /** When r is a multiple of 8: wide[(j << 16) | (b0 << 8) | b1] is bytes 2j and 2j+1 of a window's share. */
  private readonly wide: Int32Array | undefined;
  private readonly phases: Float64Array;
  private readonly taps: number;
  private readonly center: number;
  private readonly halfBand: FirDesign['halfBand'];
  /** Half-band plans: its latest outputs (at the output rate; the layout is the run function's) and the next one to compute. */
  private readonly ring = new Float64Array(16);
  private hbNext = -COMP_TAPS_HALF;
  /** The absolute bit index of byte 0 of `work` (whose first `tailLen` bytes are not yet consumed: a window starts in them). */
  private tailBit = 0;
  /** The bytes a push works on: the tail (the first `tailLen`), then the new bytes; reused, grown as needed. */
  private work = new Uint8Array(0);
  private tailLen = 0;
  /** Next CIC output's index (its window starts at bit cicIndex * r). */
  private cicIndex = 0;
  /** CIC outputs (floats in [-1, 1]) kept for the FIR: hist[j] is CIC output histStart + j - taps (zeros before the first). */
  private hist: Float64Array;
  private histLen: number;
  private histStart = 0;
  /** Next PCM output's index. */
  private outIndex = 0;

  /** `chunkBytes`: the most bytes a push will be given, if known: the working buffers are made that size at once. */
  constructor(pdmRate: number, outRate: number, chunkBytes = 0) {
    this.plan = planDecimation(pdmRate, outRate);
    const { cicFactor: r, cicOrder: n, up } = this.plan;
    this.r = r;
    const tables = cicTables(r, n);
    this.kernelBits = tables.kernelBits;
    this.span = tables.span;
    this.spans = tables.spans;
    this.table = tables.table;
    this.wide = tables.wide;
    this.scale = 1 / r ** n;
    const design = designFir(pdmRate, outRate, r, n, up);
    this.phases = design.phases;
    this.taps = design.tapsPerPhase;
    this.center = design.center;
    this.halfBand = design.halfBand;
    // room for a chunk's CIC outputs (and the FIR's window) from the start, rather than grown by doubling
    this.hist = new Float64Array(this.taps + 4096 + Math.ceil((chunkBytes * 8) / r));
    if (chunkBytes > 0) this.work = new Uint8Array(chunkBytes + this.span + 8);
    this.histLen = this.taps;
  }

  push(bytes: Uint8Array): Int16Array {
    const bufLen = this.tailLen + bytes.length;
    if (this.work.length < bufLen) {
      const grown = new Uint8Array(bufLen);
      grown.set(this.work.subarray(0, this.tailLen));
      this.work = grown;
    }
    const buf = this.work;
    buf.set(bytes, this.tailLen);
    const firstBit = this.tailBit;
    const endBit = firstBit + bufLen * 8;
    // CIC outputs whose window lies within what is here.
    const r = this.r;
    let m = this.cicIndex;
    const count = endBit >= m * r + this.kernelBits ? Math.floor((endBit - this.kernelBits - m * r) / r) + 1 : 0;
    this.reserve(count);
    const { table, span, spans, scale, hist } = this;
    let w = this.histLen;
    const wide = this.wide;
    if (wide) {
      // r a multiple of 8: every window starts on a byte; two bytes a lookup.
      const pairs = wide.length >> 16;
      let at = (m * r - firstBit) >> 3;
      const step = r >> 3;
      if (pairs === 4 && step === 2 && count > 0) {
        // r = 16: consecutive windows are one byte pair apart, so each pair is read once and slides
        // through the four tables (pair k of window m is pair k - 1 of window m + 1).
        let p0 = 0;
        let p1 = (buf[at]! << 8) | buf[at + 1]!;
        let p2 = (buf[at + 2]! << 8) | buf[at + 3]!;
        let p3 = (buf[at + 4]! << 8) | buf[at + 5]!;
        for (let c = 0; c < count; c++, at += 2) {
          p0 = p1;
          p1 = p2;
          p2 = p3;
          p3 = (buf[at + 6]! << 8) | buf[at + 7]!;
          hist[w++] = (wide[p0]! + wide[65536 + p1]! + wide[131072 + p2]! + wide[196608 + p3]!) * scale;
        }
      } else if (pairs === 4) {
        for (let c = 0; c < count; c++, at += step) {
          hist[w++] =
            (wide[(buf[at]! << 8) | buf[at + 1]!]! +
              wide[65536 + ((buf[at + 2]! << 8) | buf[at + 3]!)]! +
              wide[131072 + ((buf[at + 4]! << 8) | buf[at + 5]!)]! +
              wide[196608 + ((buf[at + 6]! << 8) | buf[at + 7]!)]!) *
            scale;
        }
      } else {
        for (let c = 0; c < count; c++, at += step) {
          let acc = 0;
          for (let j = 0; j < pairs; j++) acc += wide[(j << 16) | (buf[at + 2 * j]! << 8) | buf[at + 2 * j + 1]!]!;
          hist[w++] = acc * scale;
        }
      }
      m += count;
    } else for (let c = 0; c < count; c++, m++) {
      const rel = m * r - firstBit;
      const at = rel >> 3;
      const shift = rel & 7;
      const base = shift * span * 256;
      const nb = spans[shift]!;
      let acc = 0;
      for (let j = 0; j < nb; j++) acc += table[base + (j << 8) + buf[at + j]!]!;
      hist[w++] = acc * scale;
    }
    this.histLen = w;
    this.cicIndex = m;
    // Keep the bytes from the next window's start.
    const keepFrom = ((m * r - firstBit) >> 3);
    const kept = Math.min(keepFrom, bufLen);
    buf.copyWithin(0, kept, bufLen);
    this.tailLen = bufLen - kept;
    this.tailBit = firstBit + kept * 8;
    return this.fir(false);
  }

  /** The last samples: the FIR's window runs past the stream's end over zeros. */
  end(): Int16Array {
    return this.fir(true);
  }

  private reserve(more: number): void {
    if (this.histLen + more + this.taps <= this.hist.length) return;
    const next = new Float64Array(Math.max(this.hist.length * 2, this.histLen + more + this.taps));
    next.set(this.hist.subarray(0, this.histLen));
    this.hist = next;
  }

  private fir(final: boolean): Int16Array {
    const { up, down } = this.plan;
    const total = Math.ceil((this.cicIndex * up) / down);
    const { phases, taps, center } = this;
    // Output n is centred on upsampled time n·down; it needs CIC outputs up to i = floor((n·down + center) / up).
    const available = this.cicIndex - 1;
    let n = this.outIndex;
    let last = n - 1;
    if (final) last = total - 1;
    else {
      // The largest n whose i is available.
      last = Math.min(total - 1, Math.floor(((available + 1) * up - 1 - center) / down));
    }
    const count = Math.max(0, last - n + 1);
    const out = new Int16Array(count);
    if (final && count > 0) {
      // Zeros past the end, enough for the last output's window.
      const need = Math.floor(((total - 1) * down + center) / up) + 1 - this.cicIndex;
      if (need > 0) {
        this.reserve(need);
        this.hist.fill(0, this.histLen, this.histLen + need);
        this.histLen += need;
      }
    }
    const hist = this.hist;
    const offset = taps - this.histStart;
    if (this.halfBand) {
      // Half-band then compensator: output n = Σ comp[|k|]·hb(n + k), hb(j) = x(2j)/2 + Σ odd-offset taps
      // (x(t) is CIC output t, at hist[t + offset]). Each hb(j) is computed once, kept in the ring.
      const { odd, comp } = this.halfBand;
      const run = odd.length === 12 && comp.length === 5 ? runHalfBand12 : runHalfBand;
      this.hbNext = run(odd, comp, hist, offset, this.ring, this.hbNext, n, count, out);
      n += count;
      this.outIndex = n;
      this.forget(n);
      return out;
    }
    if (up === 1 && taps % 2 === 1) {
      // One branch (the output rate divides the CIC's): the taps are symmetric, so fold the window and
      // multiply each coefficient once (the FIR is most of the conversion's time).
      const half = (taps - 1) >> 1;
      const cMid = phases[half]!;
      for (let o = 0; o < count; o++, n++) {
        const hi = n * down + center + offset;
        const lo = hi - taps + 1;
        let acc = cMid * hist[hi - half]!;
        for (let k = 0; k < half; k++) acc += phases[k]! * (hist[hi - k]! + hist[lo + k]!);
        const v = Math.round(acc * 32767);
        out[o] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
      }
      this.outIndex = n;
      this.forget(n);
      return out;
    }
    for (let o = 0; o < count; o++, n++) {
      const t = n * down + center;
      const i = Math.floor(t / up);
      const p = t - i * up;
      const hp = p * taps;
      const hi = i + offset;
      let acc = 0;
      for (let k = 0; k < taps; k++) acc += phases[hp + k]! * hist[hi - k]!;
      const v = Math.round(acc * 32767);
      out[o] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
    }
    this.outIndex = n;
    this.forget(n);
    return out;
  }

  private forget(n: number): void {
    const { up, down } = this.plan;
    const { taps, center } = this;
    // Drop history no later output needs (it needs CIC outputs from floor((n·down + center)/up) - taps + 1).
    const firstNeeded = Math.floor((n * down + center) / up) - taps + 1;
    const drop = firstNeeded - (this.histStart - taps);
    if (drop > 4096 && drop < this.histLen) {
      this.hist.copyWithin(0, drop, this.histLen);
      this.histLen -= drop;
      this.histStart += drop;
    }
  }
}

/**
 * Half-band then compensator, `count` outputs from output n into out: output n = Σ comp[|k|]·hb(n + k),
 * hb(j) = x(2j)/2 + Σ odd[q]·(x(2j - 2q - 1) + x(2j + 2q + 1)), x(t) the CIC output t at hist[t + offset].
 * Each hb(j) is computed once and kept in the ring (ring[j & 15]); returns the next j to compute.
 */
function runHalfBand(odd: Float64Array, comp: Float64Array, hist: Float64Array, offset: number, ring: Float64Array, j: number, n: number, count: number, out: Int16Array): number {
  const K = comp.length - 1;
  const nOdd = odd.length;
  for (let o = 0; o < count; o++, n++) {
    for (; j <= n + K; j++) {
      const m = 2 * j + offset;
      let acc = 0.5 * hist[m]!;
      for (let q = 0; q < nOdd; q++) acc += odd[q]! * (hist[m - 2 * q - 1]! + hist[m + 2 * q + 1]!);
      ring[j & 15] = acc;
    }
    let y = comp[0]! * ring[n & 15]!;
    for (let k = 1; k <= K; k++) y += comp[k]! * (ring[(n - k) & 15]! + ring[(n + k) & 15]!);
    const v = Math.round(y * 32767);
    out[o] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return j;
}

/**
 * runHalfBand written out for the constants above (12 odd taps: c = 23; 9-tap compensator), about twice
 * as fast: the 24 odd-offset inputs slide through locals (one new load an output instead of 25) and the
 * last 9 half-band outputs through locals too. Here the ring holds hb(j - 8) ... hb(j - 1) in ring[0..7].
 */
function runHalfBand12(odd: Float64Array, comp: Float64Array, h: Float64Array, offset: number, ring: Float64Array, j: number, n: number, count: number, out: Int16Array): number {
  // With no output to make, compute nothing ahead: the inputs for hb(n + 4) may not be here yet.
  if (count <= 0) return j;
  const [o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11] = odd as unknown as number[];
  const [g0, g1, g2, g3, g4] = comp as unknown as number[];
  let r1 = ring[0]!, r2 = ring[1]!, r3 = ring[2]!, r4 = ring[3]!, r5 = ring[4]!, r6 = ring[5]!, r7 = ring[6]!, r8 = ring[7]!;
  const end = n + count + 4;
  let m = 2 * j + offset;
  let a0 = h[m - 23]!, a1 = h[m - 21]!, a2 = h[m - 19]!, a3 = h[m - 17]!, a4 = h[m - 15]!, a5 = h[m - 13]!, a6 = h[m - 11]!, a7 = h[m - 9]!;
  let a8 = h[m - 7]!, a9 = h[m - 5]!, a10 = h[m - 3]!, a11 = h[m - 1]!, a12 = h[m + 1]!, a13 = h[m + 3]!, a14 = h[m + 5]!, a15 = h[m + 7]!;
  let a16 = h[m + 9]!, a17 = h[m + 11]!, a18 = h[m + 13]!, a19 = h[m + 15]!, a20 = h[m + 17]!, a21 = h[m + 19]!, a22 = h[m + 21]!;
  for (; j < end; j++, m += 2) {
    const a23 = h[m + 23]!;
    const r0 = r1;
    r1 = r2;
    r2 = r3;
    r3 = r4;
    r4 = r5;
    r5 = r6;
    r6 = r7;
    r7 = r8;
    r8 =
      0.5 * h[m]! +
      o0! * (a11 + a12) +
      o1! * (a10 + a13) +
      o2! * (a9 + a14) +
      o3! * (a8 + a15) +
      o4! * (a7 + a16) +
      o5! * (a6 + a17) +
      o6! * (a5 + a18) +
      o7! * (a4 + a19) +
      o8! * (a3 + a20) +
      o9! * (a2 + a21) +
      o10! * (a1 + a22) +
      o11! * (a0 + a23);
    a0 = a1;
    a1 = a2;
    a2 = a3;
    a3 = a4;
    a4 = a5;
    a5 = a6;
    a6 = a7;
    a7 = a8;
    a8 = a9;
    a9 = a10;
    a10 = a11;
    a11 = a12;
    a12 = a13;
    a13 = a14;
    a14 = a15;
    a15 = a16;
    a16 = a17;
    a17 = a18;
    a18 = a19;
    a19 = a20;
    a20 = a21;
    a21 = a22;
    a22 = a23;
    // Output n + o needs hb up to n + o + 4, which is j.
    const o = j - 4 - n;
    if (o >= 0) {
      const v = Math.round((g0! * r4 + g1! * (r3 + r5) + g2! * (r2 + r6) + g3! * (r1 + r7) + g4! * (r0 + r8)) * 32767);
      out[o] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
    }
  }
  ring[0] = r1;
  ring[1] = r2;
  ring[2] = r3;
  ring[3] = r4;
  ring[4] = r5;
  ring[5] = r6;
  ring[6] = r7;
  ring[7] = r8;
  return j;
}

/** The 44-byte header of a mono 16-bit PCM WAV holding `samples` samples. */
export function wavHeader(sampleRate: number, samples: number): Buffer {
  const h = Buffer.alloc(44);
  const data = samples * 2;
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data, 40);
  return h;
}

function int16Bytes(a: Int16Array): Buffer {
  // WAV is little-endian, as is every machine Node runs on here; swap if not.
  const b = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) b.swap16();
  return b;
}

/** PDM bytes read at a time: the decimator's working buffers stay a few hundred kB whatever the file's length. */
export const PDM_CHUNK_BYTES = 64 * 1024;

/** The WAV a PDM file converts to: its size in bytes (header included) and sample count, from the file's size. */
export function wavSizeOf(pdmBytes: number, pdmRate: number, outRate: number): { samples: number; bytes: number } {
  const samples = pcmLength(pdmBytes * 8, planDecimation(pdmRate, outRate));
  return { samples, bytes: 44 + samples * 2 };
}

/**
 * A PDM file as WAV bytes, produced as they are read: the header (its length known from the file's size),
 * then the PCM of each chunk of PDM_CHUNK_BYTES read into one reused buffer. Memory is the decimator's
 * state and one chunk in and out, whatever the file's length; nothing is produced before it is asked for.
 */
export async function* pdmToWavChunks(src: string, pdmRate: number, outRate: number): AsyncGenerator<Buffer> {
  const decimator = new PdmDecimator(pdmRate, outRate, PDM_CHUNK_BYTES);
  const fd = await fs.promises.open(src, 'r');
  try {
    const size = (await fd.stat()).size;
    const samples = pcmLength(size * 8, decimator.plan);
    yield wavHeader(outRate, samples);
    const chunk = Buffer.allocUnsafe(Math.min(PDM_CHUNK_BYTES, Math.max(1, size)));
    let written = 0;
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fd.read(chunk, 0, Math.min(chunk.length, size - at), at);
      if (bytesRead === 0) break;
      at += bytesRead;
      // push copies what it keeps: the chunk is free to be read into again
      const pcm = decimator.push(chunk.subarray(0, bytesRead));
      written += pcm.length;
      if (pcm.length) yield int16Bytes(pcm);
    }
    const rest = decimator.end();
    written += rest.length;
    if (rest.length) yield int16Bytes(rest);
    if (written !== samples) throw new Error(`PDM conversion wrote ${written} samples, the header says ${samples}`);
  } finally {
    await fd.close();
  }
}

/**
 * Writes WAV chunks to `dst` as they pass, yielding each on: written to `dst + '.<pid>.<time>.tmp'` and
 * renamed once all are written, so a reader never sees half a file and two conversions of the same file
 * don't interfere; a consumer that stops early (a download cut off) leaves no file.
 */
export async function* keptAs(chunks: AsyncIterable<Buffer>, dst: string): AsyncGenerator<Buffer> {
  // Date.now() here makes a unique name, not a time: a fixed clock (lib/clock.ts) would repeat it.
  const tmp = `${dst}.${process.pid}.${Date.now()}.tmp`;
  const out = fs.createWriteStream(tmp);
  let done = false;
  try {
    for await (const b of chunks) {
      if (!out.write(b)) await once(out, 'drain');
      yield b;
    }
    out.end();
    await once(out, 'finish');
    await fs.promises.rename(tmp, dst);
    done = true;
  } finally {
    if (!done) {
      out.destroy();
      await fs.promises.rm(tmp, { force: true });
    }
  }
}

/** Converts a PDM file to a WAV file, reading and writing in chunks (pdmToWavChunks, keptAs). */
export async function convertPdmFile(src: string, dst: string, pdmRate: number, outRate: number): Promise<{ samples: number; rate: number; bytes: number }> {
  let bytes = 0;
  for await (const b of keptAs(pdmToWavChunks(src, pdmRate, outRate), dst)) bytes += b.length;
  return { samples: (bytes - 44) / 2, rate: outRate, bytes };
}
