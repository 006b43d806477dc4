import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, calls, Code, DeviceType, formatTime, LanguageId, signedHeaders, SpeciesType, TOKEN_COOKIE, WAV_RATE } from '@wildtrack/contract';
import { attachment } from '../../http/calls.js';
import { createTestApp, DIALECTS, imageCookie, type TestApp } from '../../test/helper.js';
import { safeName } from './service.js';

const ZONE = '+08:00';
const PDM_RATE = 512_000;
/** 2026-11-01 08:00 in +08:00: recordings are made at fixed instants, not "now". */
const BASE = Date.UTC(2026, 10, 1, 0, 0, 0);
const INGEST_NOW = BASE + 10 * 86_400_000;

/** Second-order sigma-delta modulator (as in pdm.test.ts): packed bits, earliest sample in the MSB. */
function pdmTone(seconds: number, freq: number, amplitude: number): Buffer {
  const n = Math.round(PDM_RATE * seconds);
  const out = Buffer.alloc(Math.ceil(n / 8));
  let i1 = 0;
  let i2 = 0;
  let fb = -1;
  for (let i = 0; i < n; i++) {
    i1 += amplitude * Math.sin((2 * Math.PI * freq * i) / PDM_RATE) - fb;
    i2 += i1 - fb;
    fb = i2 >= 0 ? 1 : -1;
    if (fb > 0) out[i >> 3]! |= 0x80 >> (i & 7);
  }
  return out;
}

/** A 16-bit mono WAV's rate and samples. */
function decodeWav(b: Buffer): { rate: number; samples: Int16Array } {
  expect(b.toString('latin1', 0, 4)).toBe('RIFF');
  expect(b.toString('latin1', 8, 12)).toBe('WAVE');
  expect(b.readUInt16LE(22)).toBe(1);
  expect(b.readUInt16LE(34)).toBe(16);
  const bytes = b.readUInt32LE(40);
  expect(b.length).toBe(44 + bytes);
  const samples = new Int16Array(bytes / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = b.readInt16LE(44 + 2 * i);
  return { rate: b.readUInt32LE(24), samples };
}

/** The tone's frequency from its rising zero crossings over the middle of the clip (edges hold the filters' settling). */
function frequencyOf(x: Int16Array, rate: number): { freq: number; peak: number } {
  const from = Math.floor(x.length * 0.1);
  const to = Math.floor(x.length * 0.9);
  let first = -1;
  let last = -1;
  let cycles = -1;
  let peak = 0;
  for (let i = from + 1; i < to; i++) {
    peak = Math.max(peak, Math.abs(x[i]!));
    if (x[i - 1]! < 0 && x[i]! >= 0) {
      // the crossing's position between the two samples
      const at = i - 1 + -x[i - 1]! / (x[i]! - x[i - 1]!);
      if (first < 0) first = at;
      last = at;
      cycles += 1;
    }
  }
  return { freq: (cycles * rate) / (last - first), peak: peak / 32768 };
}

/** The entries of a zip, read from its central directory (stored entries: the bytes as they are). */
function unzip(zip: Buffer): Map<string, Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let k = 0; k < count; k++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLen);
    expect(method, name).toBe(0);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    out.set(name, zip.subarray(data, data + size));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

describe.each(DIALECTS)('PDM recordings as WAV on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let deviceId: number;
  const first = BASE + 3_600_000 + 250;
  const second = BASE + 7_200_000;
  const local = (ms: number) => formatTime(ms, ZONE);

  const download = (body: unknown, token = alice, lang: 'en' | 'zh' = 'en') => {
    const payload = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: API_BASE + calls.BatchDownloadWAV.path,
      headers: { ...signedHeaders({ token, path: calls.BatchDownloadWAV.path, body: payload, lcid: LanguageId[lang] }), 'content-type': 'application/json' },
      payload,
    });
  };
  const getWav = (url: string, token = alice) => t.app.inject({ method: 'GET', url, headers: { cookie: `${TOKEN_COOKIE}=${encodeURIComponent(imageCookie(token))}` } });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Owl Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Bat Lab' }));
    const org = await t.services.devices.orgIdByName('Owl Lab');
    ({ id: deviceId } = await t.services.devices.register({ orgId: org, imei: 'OWL-AUDIO-1', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, caption: 'owl' }));
    // Through the ingest's media path, as a device's upload arrives.
    for (const [at, freq] of [[first, 1000], [second, 2000]] as const) {
      const stored = await t.services.ingest.storeMedia(deviceId, { kind: 'audio', t: at, rate: PDM_RATE, bitDepth: 1, track: 1, duration: 0.5 }, pdmTone(0.5, freq, 0.5), 'audio/x-pdm', null, INGEST_NOW);
      expect(stored).toBe(true);
    }
  }, 60_000);
  afterAll(async () => t.close());

  it('converts a PDM tone once: the WAV is served, decodes to the tone, and is kept for the next call', async () => {
    const r = await t.call(calls.ConvertPDMToWAV.path, { imei: 'OWL-AUDIO-1', pickTime: local(first), timeZone: ZONE }, { token: alice });
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    const data = calls.ConvertPDMToWAV.data.parse(r.body.Data);
    expect(data).toMatchObject({ Url: `/prod-api/files/media/OWL-AUDIO-1/audio-${first}.wav`, Rate: WAV_RATE, BitDepth: 16 });
    expect(data.Duration).toBeCloseTo(0.5, 2);
    const res = await getWav(data.Url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.rawPayload.length).toBe(data.Size);
    const wav = decodeWav(res.rawPayload);
    expect(wav.rate).toBe(WAV_RATE);
    const { freq, peak } = frequencyOf(wav.samples, wav.rate);
    expect(Math.abs(freq - 1000) / 1000).toBeLessThan(0.01);
    expect(Math.abs(peak - 0.5) / 0.5).toBeLessThan(0.05);

    // Kept beside the PDM: the second call answers the same file without converting again.
    const file = path.join(t.dataDir, 'media', String(deviceId), `audio-${first}.wav`);
    const before = fs.statSync(file);
    const again = await t.call(calls.ConvertPDMToWAV.path, { imei: 'OWL-AUDIO-1', pickTime: local(first), timeZone: ZONE }, { token: alice });
    expect(again.body.Data).toEqual(r.body.Data);
    const after = fs.statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // The file is served only to who may read the device, and only under a name the server gives.
    expect((await getWav(data.Url, bob)).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: data.Url });
    expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
    expect(anonymous.json()).toMatchObject({ Code: Code.SessionExpired });
    // The recording as recorded is its media fix's Url (GetAudioList), sent as bytes, not as something to play.
    const pdm = await getWav(`/prod-api/files/media/OWL-AUDIO-1/audio-${first}.pdm`);
    expect([pdm.statusCode, pdm.headers['content-type']]).toEqual([200, 'application/octet-stream']);
    expect((await getWav(`/prod-api/files/media/OWL-AUDIO-1/audio-${first}.pdm`, bob)).statusCode).toBe(404);
    expect((await getWav(`/prod-api/files/media/OWL-AUDIO-1/..%2F..%2Ftest.db`)).statusCode).toBe(404);
  });

  it('refuses a time without a recording naming the field, and a stranger as for a device that does not exist', async () => {
    const none = await t.call(calls.ConvertPDMToWAV.path, { imei: 'OWL-AUDIO-1', pickTime: local(first + 60_000), timeZone: ZONE }, { token: alice, lang: 'zh' });
    expect(none.body).toEqual({ Code: Code.Invalid, Msg: '该时间没有录音。', Data: { Field: 'pickTime' } });
    const stranger = await t.call(calls.ConvertPDMToWAV.path, { imei: 'OWL-AUDIO-1', pickTime: local(first), timeZone: ZONE }, { token: bob });
    expect(stranger.body).toMatchObject({ Code: Code.NotFound, Msg: 'No such device' });
    const batch = await download({ imei: 'OWL-AUDIO-1', pickTimes: [local(first), local(second + 60_000)], timeZone: ZONE });
    expect(batch.headers['content-type']).toMatch(/^application\/json/);
    expect(batch.json()).toEqual({ Code: Code.Invalid, Msg: 'There is no recording at this time.', Data: { Field: 'pickTimes[1]' } });
    expect((await download({ imei: 'OWL-AUDIO-1', pickTimes: [local(first)], timeZone: ZONE }, bob)).json()).toMatchObject({ Code: Code.NotFound });
  });

  it('streams a zip of the chosen recordings as WAV, converting a PDM recording as it is sent and keeping its WAV', async () => {
    const res = await download({ imei: 'OWL-AUDIO-1', pickTimes: [local(second), local(first), local(second)], timeZone: ZONE });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="audio-wav(OWL-AUDIO-1).zip"; filename*=UTF-8''audio-wav%28OWL-AUDIO-1%29.zip`);
    const entries = unzip(res.rawPayload);
    expect([...entries.keys()]).toEqual(['OWL-AUDIO-1-audio-20261101-100000.wav', 'OWL-AUDIO-1-audio-20261101-090000.wav']);
    const dir = path.join(t.dataDir, 'media', String(deviceId));
    expect(entries.get('OWL-AUDIO-1-audio-20261101-090000.wav')!.equals(fs.readFileSync(path.join(dir, `audio-${first}.wav`)))).toBe(true);
    // the second recording was converted while it was sent, and kept as it passed
    expect(entries.get('OWL-AUDIO-1-audio-20261101-100000.wav')!.equals(fs.readFileSync(path.join(dir, `audio-${second}.wav`)))).toBe(true);
    const wav = decodeWav(entries.get('OWL-AUDIO-1-audio-20261101-100000.wav')!);
    expect(Math.abs(frequencyOf(wav.samples, wav.rate).freq - 2000) / 2000).toBeLessThan(0.01);
  });

  it('keeps names from devices out of paths and headers unescaped', () => {
    expect(safeName('../../etc/passwd')).toBe('__.._etc_passwd');
    expect(safeName('a b/c\\d:e')).toBe('a_b_c_d_e');
    expect(attachment('audio-wav("x"\r\n;).zip')).toBe(`attachment; filename="audio-wav(_x____).zip"; filename*=UTF-8''audio-wav%28%22x%22%0D%0A%3B%29.zip`);
  });
});
