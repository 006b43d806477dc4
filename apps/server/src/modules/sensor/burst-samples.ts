import { unpackBurstCounts } from '@wildtrack/contract';
import type { BurstRow } from './repository.js';

/** A burst's counts and ODBA as every reader wants them, whichever encoding stored them. */
export interface BurstSamples {
  /** Raw counts interleaved in the order of the burst's axes. */
  raw: Int16Array;
  /** ODBA per sample in milli-g (as the first encoding stored it: rounded, at most 65535). */
  odba: Uint16Array;
  scale: number[];
  offset: number[];
}

/**
 * The counts and ODBA of a stored burst: encoding 0 holds int16 counts and uint16 milli-g ODBA; encoding 1
 * holds packed counts (contract packBurstCounts) and ODBA is computed here as the ingest computed it: per
 * axis |calibrated − the burst's mean|, summed, in milli-g.
 */
export function burstSamples(row: BurstRow): BurstSamples {
  const axes = row.axes.length;
  const n = row.sample_count;
  const { scale, offset } = JSON.parse(row.calibration) as { scale: number[]; offset: number[] };
  if (row.encoding === 1) {
    const raw = unpackBurstCounts(row.samples, row.axes, n);
    const mean = new Float64Array(axes);
    for (let i = 0; i < n; i++) for (let a = 0; a < axes; a++) mean[a]! += (raw[i * axes + a]! - offset[a]!) * scale[a]!;
    for (let a = 0; a < axes; a++) mean[a]! /= n || 1;
    const odba = new Uint16Array(n);
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let a = 0; a < axes; a++) sum += Math.abs((raw[i * axes + a]! - offset[a]!) * scale[a]! - mean[a]!);
      odba[i] = Math.min(65535, Math.round(sum * 1000));
    }
    return { raw, odba, scale, offset };
  }
  const view = new DataView(row.samples.buffer, row.samples.byteOffset, row.samples.byteLength);
  const raw = new Int16Array(n * axes);
  for (let k = 0; k < raw.length && k * 2 + 2 <= row.samples.byteLength; k++) raw[k] = view.getInt16(k * 2, true);
  const ov = new DataView(row.odba.buffer, row.odba.byteOffset, row.odba.byteLength);
  const odba = new Uint16Array(n);
  for (let i = 0; i < n && i * 2 + 2 <= row.odba.byteLength; i++) odba[i] = ov.getUint16(i * 2, true);
  return { raw, odba, scale, offset };
}
