// bench/sensors: the sensor and media figures of issue 13. `npm run bench -- sensors [part...]`;
// parts: pdm (PDM -> WAV of 10 minutes, goal <= 1 s), series (1M temperatures -> chart envelope, goal <= 300 ms
// warm), acceleration (a month of 20 Hz bursts -> ready to draw, goal <= 300 ms warm; storage per axis-sample),
// batchwav (BatchDownloadWAV of 10 and of 100 PDM recordings: zip bytes, time, peak RSS growth, flat for 100).
// Without a part, every part.
import { benchAcceleration } from './acceleration.js';
import { benchBatchWav } from './batch-wav.js';
import { benchPdm } from './pdm.js';
import { benchSeries } from './series.js';

const PARTS: Record<string, () => Promise<void>> = { pdm: benchPdm, series: benchSeries, acceleration: benchAcceleration, batchwav: benchBatchWav };
const chosen = process.argv.slice(2);
for (const name of chosen.length > 0 ? chosen : Object.keys(PARTS)) {
  const part = PARTS[name];
  if (!part) {
    console.error(`unknown part ${name}; parts: ${Object.keys(PARTS).join(', ')}`);
    process.exit(2);
  }
  await part();
}
