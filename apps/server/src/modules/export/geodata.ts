import type { Writable } from 'node:stream';
import { gradeLetter } from '@wildtrack/contract';
import { xmlText } from './cells.js';
import type { ExportFixCells } from './repository.js';
import { drained } from './zip.js';

/**
 * Geodata files of a device's positions (issue 29 "Geodata out"), written as they are read, a batch of
 * fixes at a time with the stream's backpressure honoured, for any range:
 * - GeoJSON (RFC 7946): a FeatureCollection of one Point feature per located fix, [lon, lat, ele] in
 *   WGS 84 (no `crs` member, §4), properties the device (imei, name), the time in ISO 8601 UTC to the
 *   millisecond and the fix's fields, invalid fixes included with `valid: false` (as the CSV has them).
 * - GPX 1.1: one <trk> of the device, a <trkseg> of <trkpt lat lon> with <ele>, <time>, <sat>, <hdop>, <vdop>.
 * - KML 2.2: one Placemark of the device holding a gx:MultiTrack of gx:Track pieces, each <when>s then
 *   <gx:coord>s as the schema orders them (one piece a batch: the file is written as read, never held).
 * GPX and KML are tracks: they carry the valid fixes only (what the console's track draws); a row without
 * a position (a fix attempt) is in none of the three. Coordinates and elevation are written as the shortest
 * text that reads back as the stored double (Number's own), so nothing is rounded.
 */
export type GeodataFileType = 'geojson' | 'gpx' | 'kml';

export interface GeodataDevice {
  imei: string;
  caption: string;
}

/** ISO 8601 UTC with milliseconds, '2026-11-20T01:02:03.456Z'. */
export const isoTime = (ms: number) => new Date(ms).toISOString();

/** Whether a fix is valid as the CSV's Validity column says: valid from the device and not marked invalid. */
const isValid = (f: ExportFixCells) => f[14] === 1 && f[16] === null;
const located = (f: ExportFixCells) => f[1] !== null && f[2] !== null;

/** Writes text to `out`, waiting while it is full. */
export async function put(out: Writable, text: string): Promise<void> {
  if (out.destroyed) throw new Error('the file stream closed before the export ended');
  if (!out.write(text)) await drained(out);
}

/** Ends `out` and waits until it has taken everything. */
export function endStream(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    out.once('close', () => (out.writableFinished ? resolve() : reject(new Error('the file stream closed before the export ended'))));
    out.end();
  });
}

const speedOf = (v: number | null) => (v === null || v < 0 ? null : Math.round(v * 1000) / 1000);

function featureOf(f: ExportFixCells, device: GeodataDevice): string {
  const coordinates = f[3] === null ? [f[1], f[2]] : [f[1], f[2], f[3]];
  return JSON.stringify({
    type: 'Feature',
    geometry: { type: 'Point', coordinates },
    properties: {
      imei: device.imei,
      name: device.caption || device.imei,
      time: isoTime(f[0]),
      altitude: f[3],
      speed: speedOf(f[4]),
      course: f[5],
      temperature: f[6],
      activity: f[7],
      voltage: f[8],
      channel: f[9],
      satellites: f[10],
      hdop: f[11],
      vdop: f[12],
      grade: f[13] === null ? null : gradeLetter(f[13]),
      valid: isValid(f),
      transmissionTime: f[15] === null ? null : isoTime(f[15]),
      markedInvalidAt: f[16] === null ? null : isoTime(f[16]),
    },
  });
}

function trkptOf(f: ExportFixCells): string {
  let s = `<trkpt lat="${f[2]}" lon="${f[1]}">`;
  if (f[3] !== null) s += `<ele>${f[3]}</ele>`;
  s += `<time>${isoTime(f[0])}</time>`;
  if (f[10] !== null) s += `<sat>${Math.max(0, Math.trunc(f[10]))}</sat>`;
  if (f[11] !== null) s += `<hdop>${f[11]}</hdop>`;
  if (f[12] !== null) s += `<vdop>${f[12]}</vdop>`;
  return `${s}</trkpt>\n`;
}

/** One gx:Track of a batch's fixes: absolute altitudes when every fix has one, else clamped to the ground. */
function gxTrackOf(fixes: readonly ExportFixCells[]): string {
  const absolute = fixes.every((f) => f[3] !== null);
  let s = `<gx:Track><altitudeMode>${absolute ? 'absolute' : 'clampToGround'}</altitudeMode>\n`;
  for (const f of fixes) s += `<when>${isoTime(f[0])}</when>\n`;
  for (const f of fixes) s += `<gx:coord>${f[1]} ${f[2]} ${f[3] ?? 0}</gx:coord>\n`;
  return `${s}</gx:Track>\n`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The device's name as a file's title: its caption, else its IMEI. */
const titleOf = (d: GeodataDevice) => xmlText(d.caption || d.imei);

/** Writes a device's fixes (batches in time order) to `out` as `type` says and ends it; answers how many fixes it holds. */
export async function writeGeodata(type: GeodataFileType, device: GeodataDevice, batches: AsyncIterable<readonly ExportFixCells[]>, out: Writable, onBatch?: (fixes: number) => void): Promise<number> {
  let n = 0;
  if (type === 'geojson') {
    await put(out, '{"type":"FeatureCollection","features":[\n');
    for await (const batch of batches) {
      let s = '';
      for (const f of batch) if (located(f)) s += (n++ === 0 ? '' : ',\n') + featureOf(f, device);
      await put(out, s);
      onBatch?.(n);
    }
    await put(out, '\n]}\n');
  } else if (type === 'gpx') {
    await put(
      out,
      `${XML_HEAD}<gpx version="1.1" creator="Wildtrack" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n` +
        `<metadata><name>${titleOf(device)}</name></metadata>\n<trk><name>${titleOf(device)}</name><desc>IMEI ${xmlText(device.imei)}</desc><src>Wildtrack</src><trkseg>\n`,
    );
    for await (const batch of batches) {
      let s = '';
      for (const f of batch) {
        if (!located(f) || !isValid(f)) continue;
        s += trkptOf(f);
        n++;
      }
      await put(out, s);
      onBatch?.(n);
    }
    await put(out, '</trkseg></trk>\n</gpx>\n');
  } else {
    await put(
      out,
      `${XML_HEAD}<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">\n<Document><name>${titleOf(device)}</name>\n` +
        `<Placemark><name>${titleOf(device)}</name><description>IMEI ${xmlText(device.imei)}</description>` +
        `<ExtendedData><Data name="imei"><value>${xmlText(device.imei)}</value></Data></ExtendedData>\n<gx:MultiTrack><gx:interpolate>1</gx:interpolate>\n`,
    );
    for await (const batch of batches) {
      const fixes = batch.filter((f) => located(f) && isValid(f));
      if (fixes.length) await put(out, gxTrackOf(fixes));
      n += fixes.length;
      onBatch?.(n);
    }
    await put(out, '</gx:MultiTrack></Placemark>\n</Document>\n</kml>\n');
  }
  await endStream(out);
  return n;
}
