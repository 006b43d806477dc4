// bench/sensors pdm: 10 minutes of PDM audio (a MEMS microphone's 1-bit stream at 512 kHz, 38.4 MB)
// converted to a 16 kHz 16-bit WAV on disk, as ConvertPDMToWAV does on a first request (goal <= 1 s).
// Prints wall and CPU time (the machine is shared: wall time also counts waiting for a core), the
// conversion rate against real time, and the peak heap/RSS growth (the converter works in chunks).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertPdmFile, planDecimation } from '../../apps/server/src/modules/media/pdm.js';

const PDM_RATE = 512_000;
const OUT_RATE = 16_000;
const MINUTES = Number(process.env.BENCH_PDM_MINUTES ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** A second-order sigma-delta modulation of a bird-like warble with noise, written in pieces (not timed). */
function writePdm(file: string, seconds: number): number {
  const fd = fs.openSync(file, 'w');
  const total = Math.round(PDM_RATE * seconds);
  const block = new Uint8Array(PDM_RATE / 8);
  let i1 = 0;
  let i2 = 0;
  let fb = -1;
  let phase = 0;
  let seed = 12345;
  for (let at = 0; at < total; at += PDM_RATE) {
    block.fill(0);
    const n = Math.min(PDM_RATE, total - at);
    for (let k = 0; k < n; k++) {
      const t = (at + k) / PDM_RATE;
      phase += (2 * Math.PI * (3000 + 1200 * Math.sin(2 * Math.PI * 3 * t))) / PDM_RATE;
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const x = 0.35 * Math.sin(phase) * (0.5 + 0.5 * Math.sin(2 * Math.PI * 0.7 * t)) + 0.01 * (seed / 0x7fffffff - 0.5);
      i1 += x - fb;
      i2 += i1 - fb;
      fb = i2 >= 0 ? 1 : -1;
      if (fb > 0) block[k >> 3]! |= 0x80 >> (k & 7);
    }
    fs.writeSync(fd, block, 0, Math.ceil(n / 8));
  }
  fs.closeSync(fd);
  return Math.ceil(total / 8);
}

export async function benchPdm(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-pdm-'));
  try {
    const src = path.join(dir, 'audio.pdm');
    const bytes = writePdm(src, MINUTES * 60);
    const plan = planDecimation(PDM_RATE, OUT_RATE);
    const fir = plan.halfBand
      ? `half-band /2 (${plan.halfBand.halfBandTaps} non-zero taps, of ${plan.tapsPerPhase - 2 * (plan.halfBand.compensatorTaps - 1)}) then a ${plan.halfBand.compensatorTaps}-tap droop compensator`
      : `FIR ${plan.up}/${plan.down} with ${plan.tapsPerPhase} taps a branch`;
    console.log(`PDM -> WAV: ${MINUTES} min at ${PDM_RATE / 1000} kHz (${(bytes / 1e6).toFixed(1)} MB) to ${OUT_RATE / 1000} kHz 16-bit; CIC order ${plan.cicOrder} /${plan.cicFactor}, ${fir}`);
    const rss0 = process.memoryUsage().rss;
    let best = Infinity;
    for (let run = 0; run < RUNS; run++) {
      const dst = path.join(dir, `audio-${run}.wav`);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await convertPdmFile(src, dst, PDM_RATE, OUT_RATE);
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      best = Math.min(best, ms);
      console.log(
        `  run ${run + 1}: ${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU; ${r.samples} samples, ${(r.bytes / 1e6).toFixed(1)} MB WAV; ${((MINUTES * 60_000) / ms).toFixed(0)}x real time`,
      );
      fs.rmSync(dst);
    }
    const rss = process.memoryUsage().rss;
    console.log(`  best ${best.toFixed(0)} ms (goal <= 1000 ms) ${best <= 1000 ? 'OK' : 'OVER'}; RSS grew ${((rss - rss0) / 1e6).toFixed(1)} MB over the runs (the input is ${(bytes / 1e6).toFixed(1)} MB)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
