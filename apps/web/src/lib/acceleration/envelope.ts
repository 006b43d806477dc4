import type { AccelerationOdba } from '@wildtrack/contract';

/** The overview chart's buckets: about its width in pixels on a wide screen. */
export const OVERVIEW_BUCKETS = 1200;

/** ODBA over the range for a chart: per time bucket the mean and the peak of its samples' ODBA (g). */
export interface OdbaEnvelope {
  /** Bucket centres, epoch seconds (uPlot's x), only buckets that hold samples. */
  x: Float64Array;
  mean: Float32Array;
  max: Float32Array;
}

/**
 * The samples' ODBA over [from, to] (epoch ms) in at most `buckets` equal buckets: a chart never gets more
 * points than it has pixels (issue 13: a million samples are summarised, not drawn).
 */
export function odbaEnvelope(time: ArrayLike<number>, odba: ArrayLike<number>, count: number, from: number, to: number, buckets: number): OdbaEnvelope {
  const width = Math.max(1, (to - from) / buckets);
  const sum = new Float64Array(buckets);
  const n = new Uint32Array(buckets);
  const max = new Float32Array(buckets);
  for (let i = 0; i < count; i++) {
    const b = Math.floor((time[i]! - from) / width);
    if (b < 0 || b >= buckets) continue;
    const v = odba[i]!;
    sum[b]! += v;
    n[b]! += 1;
    if (v > max[b]!) max[b] = v;
  }
  return summarised(sum, n, max, from, width);
}

/** The buckets that hold samples: their centres (epoch s), means and peaks. */
function summarised(sum: Float64Array, n: Uint32Array, max: Float32Array, from: number, width: number): OdbaEnvelope {
  let used = 0;
  for (let b = 0; b < n.length; b++) if (n[b]! > 0) used++;
  const out = { x: new Float64Array(used), mean: new Float32Array(used), max: new Float32Array(used) };
  let k = 0;
  for (let b = 0; b < n.length; b++) {
    if (n[b] === 0) continue;
    out.x[k] = (from + (b + 0.5) * width) / 1000;
    out.mean[k] = sum[b]! / n[b]!;
    out.max[k] = max[b]!;
    k++;
  }
  return out;
}

/**
 * odbaEnvelope of decoded bursts, each sample's time taken from its burst (start + i × 1000 / hz, as the
 * codec gives it) rather than from a column of times: the acceleration worker's overview.
 */
export function odbaEnvelopeOfBursts(s: Pick<AccelerationOdba, 'burstCount' | 'start' | 'hz' | 'count' | 'first' | 'odba'>, from: number, to: number, buckets: number): OdbaEnvelope {
  const width = Math.max(1, (to - from) / buckets);
  const sum = new Float64Array(buckets);
  const n = new Uint32Array(buckets);
  const max = new Float32Array(buckets);
  const odba = s.odba;
  for (let k = 0; k < s.burstCount; k++) {
    const t0 = s.start[k]!;
    const step = 1000 / (s.hz[k]! || 1);
    const s0 = s.first[k]!;
    const count = s.count[k]!;
    for (let i = 0; i < count; i++) {
      const b = Math.floor((t0 + Math.round(i * step) - from) / width);
      if (b < 0 || b >= buckets) continue;
      const v = odba[s0 + i]!;
      sum[b]! += v;
      n[b]! += 1;
      if (v > max[b]!) max[b] = v;
    }
  }
  return summarised(sum, n, max, from, width);
}
