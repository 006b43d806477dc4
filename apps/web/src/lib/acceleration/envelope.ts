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
  let used = 0;
  for (let b = 0; b < buckets; b++) if (n[b]! > 0) used++;
  const out = { x: new Float64Array(used), mean: new Float32Array(used), max: new Float32Array(used) };
  let k = 0;
  for (let b = 0; b < buckets; b++) {
    if (n[b] === 0) continue;
    out.x[k] = (from + (b + 0.5) * width) / 1000;
    out.mean[k] = sum[b]! / n[b]!;
    out.max[k] = max[b]!;
    k++;
  }
  return out;
}
