// The sample-fleet generator: simulated devices (profiles, movement, GNSS, sensors, power, media) as pure,
// seeded functions. The server fills its sample devices with it in-process; tools/simulator drives the
// same devices over HTTP.
export { PROFILES, PROFILE_IDS, getProfile, registerArgs, FLAG_KIND } from './profiles.js';
export type { Profile, ProfileId, Behaviour, MotionSpec, PowerSpec, AccSpec, Site } from './profiles.js';
export { createDevice } from './device.js';
export type { DeviceSimulator, DeviceOptions, DeviceSchedule, DeviceInstruction, MediaItem, Advance, InstructionResult } from './device.js';
export { batteryLevel, defaultSettings, Coverage } from './work.js';
export type { BatteryLevel } from './work.js';
export { backfill, shiftAdvance, sampleFleet, ownFleet, splitBatch, countRecords, imeiWithCheck } from './fleet.js';
export type { BackfillOptions, FleetDevice, InstructionOutcome } from './fleet.js';
export type { FixSchedule, PostbackSchedule } from './schedule.js';
export { burstOdba, unpackSamples, EXPECTED_ODBA } from './acceleration.js';
export { PDM_RATE, PDM_CONTENT_TYPE, birdCall, pdmEncode, pdmToPcm, pdmToWav } from './media/pdm.js';
export { fieldPhoto } from './media/jpeg.js';
export { VIDEO_CLIP } from './media/video-clip.js';
export { mediaQuery } from './media/query.js';
export { DAY, HOUR, MINUTE, distance, solarHour } from './geo.js';
export type { LonLat } from './geo.js';
export { Rng, seedFrom } from './rng.js';
