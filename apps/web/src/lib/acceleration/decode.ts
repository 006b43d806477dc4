import { type AccelerationOdba, decodeBase64AccelerationOdba } from '@wildtrack/contract';
import { type OdbaEnvelope, odbaEnvelopeOfBursts } from './envelope';

/** What the acceleration worker is given: the binary's base64 text, the range (epoch ms) and the overview's buckets. */
export interface DecodeInput {
  /** Or the bytes themselves, when the answer came encrypted. */
  base64: string | Uint8Array;
  from: number;
  to: number;
  buckets: number;
}

export interface Decoded {
  /** The bursts and each sample's ODBA (the screens draw the ODBA and the bursts; a burst's axes come with its page). */
  series: AccelerationOdba;
  envelope: OdbaEnvelope;
}

/** Decodes the series and summarises its samples' ODBA for the overview chart (the worker's job, or inline). */
export function decodeWithEnvelope(r: DecodeInput): Decoded {
  const series = decodeBase64AccelerationOdba(r.base64);
  return { series, envelope: odbaEnvelopeOfBursts(series, r.from, r.to, r.buckets) };
}

/** The buffers a decoded series hands back from the worker (transferred, not copied). */
export function decodedBuffers({ series: s, envelope: e }: Decoded): ArrayBuffer[] {
  return [s.start, s.hz, s.count, s.first, s.meanOdba, s.axes, s.odba, e.x, e.mean, e.max].map((a) => a.buffer as ArrayBuffer);
}
