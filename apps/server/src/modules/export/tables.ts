import { type ExportKind, gradeLetter, type Lang, SENSOR_KIND_NAMES, SENSOR_KINDS, SensorKind, type SensorKindName } from '@wildtrack/contract';
import { describeEvent } from '../event/service.js';
import { burstSamples } from '../sensor/burst-samples.js';
import { type Cell, type CellOut, emitCells, RowCollector, zonedHeader } from './cells.js';
import type { ExportDevice, ExportFixCells, ExportQuery, ExportRepository } from './repository.js';

export type { Cell } from './cells.js';

/** A header in both languages; `time`: a column of times, its header naming the file's zone. */
type Label = { zh: string; en: string; time?: true };

const L = (zh: string, en: string): Label => ({ zh, en });
const T = (zh: string, en: string): Label => ({ zh, en, time: true });

const IMEI = L('IMEI', 'IMEI');
const TIME = T('时间', 'Time');

const FIX_COLUMNS: Label[] = [
  IMEI,
  T('定位时间', 'PickTime'),
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
  T('传输时间', 'TransmissionTime'),
  T('标记无效时间', 'Marked invalid at'),
];

const ACCELERATION_COLUMNS: Label[] = [
  IMEI,
  T('片段开始时间', 'BurstTime'),
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

const EVENT_COLUMNS: Label[] = [IMEI, T('发生时间', 'Time'), L('事件', 'Event'), L('内容', 'Content')];

/** Each kind's name in a file's name and a sheet's name; the scalar kinds' from their rows (contract sensor-kinds.ts). */
export const KIND_LABELS: Record<ExportKind, Label> = {
  fix: L('定位', 'positions'),
  ...(Object.fromEntries(SENSOR_KIND_NAMES.map((k) => [k, SENSOR_KINDS[k].file])) as Record<SensorKindName, Label>),
  acceleration: L('加速度', 'acceleration'),
  event: L('事件', 'events'),
};

const VALIDITY: Record<Lang, [string, string]> = { zh: ['无效', '有效'], en: ['invalid', 'valid'] };

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

function labelsOf(kind: ExportKind): Label[] {
  return kind === 'fix' ? FIX_COLUMNS : kind === 'acceleration' ? ACCELERATION_COLUMNS : kind === 'event' ? EVENT_COLUMNS : [IMEI, TIME, ...SENSOR_KINDS[kind].values.map((v) => v.export)];
}

/**
 * A kind's headers in `lang`, each time column's naming the file's zone (issue 28 item 3): the file says
 * what its times are without the request that made it, and a CSV stays one header line for R and pandas.
 */
export function headersOf(kind: ExportKind, lang: Lang, zone: string): string[] {
  return labelsOf(kind).map((l) => (l.time ? zonedHeader(l[lang], zone) : l[lang]));
}

/** The indexes of a kind's time columns. */
export function timeColumnsOf(kind: ExportKind): number[] {
  return labelsOf(kind).flatMap((l, i) => (l.time ? [i] : []));
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
  /** The columns that hold times (date cells in XLSX, made wide enough). */
  timeColumns?: readonly number[];
  batches: () => AsyncGenerator<readonly R[]>;
  emit: (row: R, o: CellOut) => void;
}

/** A table of rows that are arrays of ready cells. */
export const cellTable = (headers: string[], batches: () => AsyncGenerator<Cell[][]>, timeColumns: readonly number[] = []): Table<Cell[]> => ({ headers, timeColumns, batches, emit: emitCells });

/**
 * A kind's table as the CSV and XLSX files write it: the console's values (signed degrees, km/h, V,
 * calibrated g), times in `zone`, headers in `lang`. Positions (the millions of rows) are written from
 * the read arrays straight into the file's cells; the other kinds as arrays of cells.
 */
export function tableOf(kind: ExportKind, s: TableSource): Table {
  const headers = headersOf(kind, s.lang, s.zone);
  const timeColumns = timeColumnsOf(kind);
  if (kind === 'fix') {
    const { repo, q, lang } = s;
    const imei = s.device.imei;
    const [invalid, valid] = VALIDITY[lang];
    const grades = new Map<number, string>();
    const table: Table<ExportFixCells> = {
      headers,
      timeColumns,
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
  return cellTable(headers, () => otherRows(kind, s), timeColumns) as Table;
}

/** A kind's rows as arrays of cells, a batch at a time (times as text in the zone, `timeText`): for writers that take rows of values. */
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
  // Times stay instants until a file writes them: text (to the millisecond when they have one) or date cells.
  if (kind === 'acceleration') {
    for await (const batch of repo.bursts(q)) {
      const rows: Cell[][] = [];
      for (const b of batch) {
        const { raw, odba, scale, offset } = burstSamples(b);
        const axes = b.axes.length;
        const column = (['X', 'Y', 'Z'] as const).map((a) => b.axes.indexOf(a));
        const burstTime: Cell = { at: b.start_time };
        for (let i = 0; i < b.sample_count; i++) {
          const origin = column.map((c) => (c < 0 ? null : raw[i * axes + c]!));
          const cal = origin.map((v, k) => (v === null ? null : round((v - offset[column[k]!]!) * scale[column[k]!]!, 5)));
          rows.push([imei, burstTime, { at: b.start_time + Math.round((i * 1000) / b.hz), withMs: true }, b.hz, b.axes, ...origin, ...cal, odba[i]! / 1000]);
        }
      }
      yield rows;
    }
  } else if (kind === 'event') {
    const name = device.caption || imei;
    for await (const batch of repo.events(q)) {
      yield batch.map((e) => {
        const { Title, Content } = describeEvent(e.type, e.content, name, lang, zone);
        return [imei, { at: e.happen_time }, Title, Content];
      });
    }
  } else {
    const k = SensorKind[kind as SensorKindName];
    const n = k.values.length;
    for await (const batch of repo.sensor(k.id, q)) {
      yield batch.map((r) => {
        const row: Cell[] = [imei, { at: r.time }, r.v1];
        if (n > 1) row.push(r.v2);
        if (n > 2) row.push(r.v3);
        if (n > 3) row.push(r.v4);
        return row;
      });
    }
  }
}
