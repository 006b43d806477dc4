import { DeviceRepository } from '../modules/device/repository.js';
import { ensureSampleDevices } from '../modules/device/samples.js';
import type { TestApp } from './helper.js';

/** The experience (sample) devices made in a test app as main.ts makes them at start, over `days` of history. */
export function addSampleDevices(t: TestApp, options: { days: number }) {
  return ensureSampleDevices(new DeviceRepository(t.database.db), t.services.devices, t.services.ingest, options);
}
