import { type ExportKind, formatTime, gradeLetter, type Lang, parseOffset, SENSOR_KIND_NAMES, SENSOR_KINDS, SensorKind, type SensorKindName } from '@wildtrack/contract';
import { describeEvent } from '../event/service.js';
import { burstSamples } from '../sensor/burst-samples.js';
import { formatTimeMs } from '../sensor/service.js';
import { type Cell, type CellOut, emitCells, RowCollector } from './cells.js';
import type { ExportDevice, ExportFixCells, ExportQuery, ExportRepository } from './repository.js';

export type { Cell } from './cells.js';

/** A header in both languages. */
type Label = { zh: string; en: string };

const L = (zh: string, en: string): Label => ({ zh, en });

const IMEI = L('IMEI', 'IMEI');
const TIME = L('时间', 'Time');

const FIX_COLUMNS: Label[] = [
  IMEI,
  L('定位时间', 'PickTime'),
  L('经度', 'Longitude'),
  L('纬度', 'Latitude'),
  L('海拔(m)', 'Altitude (m)'),
  L('速度(km/h)', 'Speed (km/h)'),
  L('航向(°)', 'Course (°)'),
  L('温度(℃)', 'Temperature (°C)'),
  L('活动量', 'Exercise'),
  L('电压(V)', 'Voltage (V)'),
  L('信道', 'Channel'),
  L('卫星数', 'Satellites'),
  L('HDOP', 'HDOP'),
  L('VDOP', 'VDOP'),
  L('精度等级', 'PrecisionGrade'),
  L('有效性', 'Validity'),
  L('传输时间', 'TransmissionTime'),
  L('标记无效时间', 'Marked invalid at'),
];

const ACCELERATION_COLUMNS: Label[] = [
  IMEI,
  L('片段开始时间', 'BurstTime'),
  TIME,
  L('频率(Hz)', 'Frequency (Hz)'),
  L('轴', 'Axes'),
  L('原始X', 'OriginX'),
  L('原始Y', 'OriginY'),
  L('原始Z', 'OriginZ'),
  L('X(g)', 'X (g)'),
  L('Y(g)', 'Y (g)'),
  L('Z(g)', 'Z (g)'),
  L('ODBA(g)', 'ODBA (g)'),
];

const EVENT_COLUMNS: Label[] = [IMEI, L('发生时间', 'Time'), L('事件', 'Event'), L('内容', 'Content')];

/** Each kind's name in a file's name and a sheet's name; the scalar kinds' from their rows (contract sensor-kinds.ts). */
export const KIND_LABELS: Record<ExportKind, Label> = {
  fix: L('定位', 'positions'),
  ...(Object.fromEntries(SENSOR_KIND_NAMES.map((k) => [k, SENSOR_KINDS[k].file])) as Record<SensorKindName, Label>),
  acceleration: L('加速度', 'acceleration'),
  event: L('事件', 'events'),
};

const VALIDITY: Record<Lang, [string, string]> = { zh: ['无效', '有效'], en: ['invalid', 'valid'] };

const DAY_MS = 86_400_000;
/** '00' to '59', made once: a row's time takes three of them. */
const P2 = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));

/**
 * formatTime for one zone, for millions of rows: the offset parsed once and the date part kept while the
 * times stay on one day (rows come in time order), so a row costs a few string joins instead of a Date.
 */
export function timeFormatter(zone: string): (ms: number | null) => string | null {
  const offset = (parseOffset(zone) ?? 0) * 60_000;
  let day = Number.NaN;
  let date = '';
  return (ms) => {
    if (ms === null) return null;
    const local = ms + offset;
    const d = Math.floor(local / DAY_MS);
    if (d !== day) {
      day = d;
      date = formatTime(d * DAY_MS - offset, zone).slice(0, 11);
    }
    const s = Math.floor((local - d * DAY_MS) / 1000);
    return `${date}${P2[Math.floor(s / 3600)]}:${P2[Math.floor(s / 60) % 60]}:${P2[s % 60]}`;
  };
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** A kind's headers in `lang`. */
export function headersOf(kind: ExportKind, lang: Lang): string[] {
  const labels =
    kind === 'fix' ? FIX_COLUMNS : kind === 'acceleration' ? ACCELERATION_COLUMNS : kind === 'event' ? EVENT_COLUMNS : [IMEI, TIME, ...SENSOR_KINDS[kind].values.map((v) => v.export)];
  return labels.map((l) => l[lang]);
}

/** What a table's rows are made from. */
export interface TableSource {
  repo: ExportRepository;
  device: ExportDevice;
  q: ExportQuery;
  lang: Lang;
  zone: string;
}

/** A file's table: its headers, its rows a batch at a time in time order, and how a row's cells are written. */
export interface Table<R = unknown> {
  headers: string[];
  batches: () => AsyncGenerator<readonly R[]>;
  emit: (row: R, o: CellOut) => void;
}

/** A table of rows that are arrays of ready cells. */
export const cellTable = (headers: string[], batches: () => AsyncGenerator<Cell[][]>): Table<Cell[]> => ({ headers, batches, emit: emitCells });

/**
 * A kind's table as the CSV and XLSX files write it: the console's values (signed degrees, km/h, V,
 * calibrated g), times in `zone`, headers in `lang`. Positions (the millions of rows) are written from
 * the read arrays straight into the file's cells; the other kinds as arrays of cells.
 */
export function tableOf(kind: ExportKind, s: TableSource): Table {
  const headers = headersOf(kind, s.lang);
  if (kind === 'fix') {
    const { repo, q, lang } = s;
    const imei = s.device.imei;
    const [invalid, valid] = VALIDITY[lang];
    const grades = new Map<number, string>();
    const table: Table<ExportFixCells> = {
      headers,
      batches: () => repo.fixCells(q),
      emit: (f, o) => {
        o.text(imei);
        o.time(f[0]);
        o.num(f[1]);
        o.num(f[2]);
        o.num(f[3]);
        const speed = f[4];
        o.num(speed === null || speed < 0 ? null : round(speed, 3));
        o.num(f[5]);
        o.num(f[6]);
        o.num(f[7]);
        o.num(f[8]);
        o.num(f[9]);
        o.num(f[10]);
        o.num(f[11]);
        o.num(f[12]);
        const grade = f[13];
        if (grade === null) o.text(null);
        else {
          let letter = grades.get(grade);
          if (letter === undefined) grades.set(grade, (letter = gradeLetter(grade)));
          o.text(letter);
        }
        o.text(f[14] === 1 && f[16] === null ? valid : invalid);
        o.time(f[15]);
        o.time(f[16]);
        o.end();
      },
    };
    return table as Table;
  }
  return cellTable(headers, () => otherRows(kind, s)) as Table;
}

/** A kind's rows as arrays of cells, a batch at a time (times as text in the zone): for writers that take rows of values. */
export async function* tableRows(kind: ExportKind, s: TableSource): AsyncGenerator<Cell[][]> {
  const table = tableOf(kind, s);
  const rows = new RowCollector(s.zone);
  for await (const batch of table.batches()) {
    for (const r of batch) table.emit(r, rows);
    yield rows.take();
  }
}

/** The rows of every kind but positions. */
async function* otherRows(kind: ExportKind, s: TableSource): AsyncGenerator<Cell[][]> {
  const { repo, device, q, lang, zone } = s;
  const imei = device.imei;
  if (kind === 'acceleration') {
    for await (const batch of repo.bursts(q)) {
      const rows: Cell[][] = [];
      for (const b of batch) {
        const { raw, odba, scale, offset } = burstSamples(b);
        const axes = b.axes.length;
        const column = (['X', 'Y', 'Z'] as const).map((a) => b.axes.indexOf(a));
        const burstTime = formatTime(b.start_time, zone);
        for (let i = 0; i < b.sample_count; i++) {
          const origin = column.map((c) => (c < 0 ? null : raw[i * axes + c]!));
          const cal = origin.map((v, k) => (v === null ? null : round((v - offset[column[k]!]!) * scale[column[k]!]!, 5)));
          rows.push([imei, burstTime, formatTimeMs(b.start_time + Math.round((i * 1000) / b.hz), zone), b.hz, b.axes, ...origin, ...cal, odba[i]! / 1000]);
        }
      }
      yield rows;
    }
  } else if (kind === 'event') {
    const name = device.caption || imei;
    for await (const batch of repo.events(q)) {
      yield batch.map((e) => {
        const { Title, Content } = describeEvent(e.type, e.content, name, lang, zone);
        return [imei, formatTime(e.happen_time, zone), Title, Content];
      });
    }
  } else {
    const k = SensorKind[kind as SensorKindName];
    const n = k.values.length;
    const time = timeFormatter(zone);
    for await (const batch of repo.sensor(k.id, q)) {
      yield batch.map((r) => {
        const row: Cell[] = [imei, time(r.time), r.v1];
        if (n > 1) row.push(r.v2);
        if (n > 2) row.push(r.v3);
        if (n > 3) row.push(r.v4);
        return row;
      });
    }
  }
}
