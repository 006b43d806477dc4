import type { Writable } from 'node:stream';
import type { PoiExportFileType } from '@wildtrack/contract';
import { xmlText } from '../export/cells.js';
import { endStream, isoTime, put } from '../export/geodata.js';
import type { PoiRow } from './repository.js';

/**
 * A phone's points of interest as a geodata file (issue 29 "Geodata out"), a page at a time: GeoJSON (RFC
 * 7946) Point features [lon, lat, ele] with the POI's fields, or GPX 1.1 waypoints (<wpt lat lon> with
 * <ele>, <time>, <name>, <desc>, <type> the target). Times ISO 8601 UTC to the millisecond.
 */
export async function writePois(type: PoiExportFileType, device: { imei: string; caption: string }, pages: AsyncIterable<readonly PoiRow[]>, out: Writable): Promise<number> {
  let n = 0;
  if (type === 'geojson') {
    await put(out, '{"type":"FeatureCollection","features":[\n');
    for await (const page of pages) {
      let s = '';
      for (const p of page) {
        const feature = {
          type: 'Feature',
          id: String(p.id),
          geometry: { type: 'Point', coordinates: p.alt === null ? [p.lon, p.lat] : [p.lon, p.lat, p.alt] },
          properties: {
            id: String(p.id), imei: device.imei, device: device.caption || device.imei, name: p.name, target: p.target, time: isoTime(p.record_time),
            altitude: p.alt, recorder: String(p.recorder), recorderName: p.recorder_name, address: p.address, description: p.description, photos: JSON.parse(p.photos) as string[],
          },
        };
        s += (n++ === 0 ? '' : ',\n') + JSON.stringify(feature);
      }
      await put(out, s);
    }
    await put(out, '\n]}\n');
  } else {
    const title = xmlText(device.caption || device.imei);
    await put(
      out,
      '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Wildtrack" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n' +
        `<metadata><name>${title}</name><desc>IMEI ${xmlText(device.imei)}</desc></metadata>\n`,
    );
    for await (const page of pages) {
      let s = '';
      for (const p of page) {
        s += `<wpt lat="${p.lat}" lon="${p.lon}">${p.alt === null ? '' : `<ele>${p.alt}</ele>`}<time>${isoTime(p.record_time)}</time><name>${xmlText(p.name)}</name>`;
        const desc = [p.description, p.address].filter(Boolean).join(' — ');
        s += `${desc ? `<desc>${xmlText(desc)}</desc>` : ''}${p.recorder_name ? `<src>${xmlText(p.recorder_name)}</src>` : ''}${p.target ? `<type>${xmlText(p.target)}</type>` : ''}</wpt>\n`;
        n++;
      }
      await put(out, s);
    }
    await put(out, '</gpx>\n');
  }
  await endStream(out);
  return n;
}
