import { MovebankFormatError } from './errors.js';

/**
 * The column dictionary: which Movebank attribute (a CSV column, lower case) the import reads as which
 * field. Alternatives are in order of preference. Movebank writes sensor attributes with a colon
 * (gps:satellite-count); older exports and hand-converted files use a hyphen: both are listed.
 * Every column not named here is kept as written in the record's `extra`.
 */
export const COLUMNS = {
  time: ['timestamp'],
  lon: ['location-long'],
  lat: ['location-lat'],
  sensorType: ['sensor-type'],
  tag: ['tag-local-identifier'],
  individual: ['individual-local-identifier'],
  taxon: ['individual-taxon-canonical-name'],
  study: ['study-name'],
  event: ['event-id'],
  /** Source marks: visible=false, and every `*-outlier` column (matched by suffix, see OUTLIER_SUFFIX). */
  visible: ['visible'],
  /** A fix re-validated in Movebank: visible whatever its outlier columns say (read, and kept in `extra`). */
  manuallyValid: ['manually-marked-valid'],
  // fix values; for temperature, voltage and hdop the first non-empty one in each row is used. A fix's
  // altitude is above sea level: height-above-ellipsoid (another datum) is never taken for it and stays in
  // `extra` under its own name, so both come back out each under its own column.
  alt: ['height-above-msl'],
  speed: ['ground-speed'],
  course: ['heading'],
  temperature: ['external-temperature', 'eobs:temperature'],
  voltage: ['eobs:battery-voltage', 'tag-voltage'],
  satellites: ['gps:satellite-count', 'gps-satellite-count'],
  hdop: ['gps:hdop', 'gps-hdop', 'gps:dop', 'gps-dop'],
  vdop: ['gps:vdop', 'gps-vdop'],
  // e-obs nested acceleration: one row per burst
  eobsRaw: ['eobs:accelerations-raw'],
  eobsAxes: ['eobs:acceleration-axes'],
  eobsHz: ['eobs:acceleration-sampling-frequency-per-axis'],
  eobsStart: ['eobs:start-timestamp'],
  // plain long-format acceleration: one row per sample
  rawX: ['acceleration-raw-x'],
  rawY: ['acceleration-raw-y'],
  rawZ: ['acceleration-raw-z'],
  tiltX: ['tilt-x'],
  tiltY: ['tilt-y'],
  tiltZ: ['tilt-z'],
  accX: ['acceleration-x'],
  accY: ['acceleration-y'],
  accZ: ['acceleration-z'],
  start: ['start-timestamp'],
} as const satisfies Record<string, readonly string[]>;

export type Field = keyof typeof COLUMNS;

/**
 * The reference data's columns ("tag / individual / deployment"), names normalised to snake_case. The
 * study page's download writes the current names first in each list (tag_local_identifier); the Movebank
 * Data Repository's older CSV the ones after them (tag-id, animal-id, deploy-on-date). Alternatives in
 * order of preference: where both are present (gulls, albatrosses), tag_id is Movebank's internal number
 * and tag_local_identifier the tag's own name.
 */
export const REFERENCE_COLUMNS = {
  tag: ['tag_local_identifier', 'tag_id'],
  individual: ['individual_local_identifier', 'animal_id'],
  taxon: ['taxon_canonical_name', 'animal_taxon', 'individual_taxon_canonical_name'],
  sex: ['sex', 'animal_sex'],
  lifeStage: ['animal_life_stage', 'life_stage'],
  mass: ['animal_mass'],
  deployOn: ['deploy_on_timestamp', 'deploy_on_date'],
  ringId: ['ring_id', 'animal_ring_id'],
  nickName: ['nick_name', 'animal_nickname'],
  studySite: ['study_site'],
  attachmentType: ['attachment_type'],
  deploymentId: ['deployment_local_identifier', 'deployment_id'],
  model: ['manufacturer_name', 'tag_manufacturer_name', 'tag_model', 'model'],
} as const satisfies Record<string, readonly string[]>;

/** A reference file's header name as REFERENCE_COLUMNS spells it: lower case, hyphens as underscores. */
export const referenceName = (h: string): string => h.trim().toLowerCase().replace(/-/g, '_');

export const OUTLIER_SUFFIX = '-outlier';

/** Fields that say which animal and tag a row belongs to: they become the device, not row data. */
const DEVICE_FIELDS: Field[] = ['sensorType', 'tag', 'individual', 'taxon', 'study'];

/** Where each field of the dictionary sits in this file's header (-1 when absent). */
export class Layout {
  /** The header's names in lower case, as the dictionary matches them. */
  readonly names: string[];
  /** The header's names as written: unmapped values are kept in `extra` under these. */
  readonly header: string[];
  private readonly index = new Map<string, number>();
  readonly time: number;
  readonly lon: number;
  readonly lat: number;
  readonly sensorType: number;
  readonly tag: number;
  readonly individual: number;
  readonly taxon: number;
  readonly study: number;
  readonly event: number;
  readonly visible: number;
  readonly manuallyValid: number;
  readonly outliers: number[];
  // one value each; alternatives in order of preference
  readonly alt: number[];
  readonly speed: number;
  readonly course: number;
  readonly temperature: number[];
  readonly voltage: number[];
  readonly satellites: number;
  readonly hdop: number[];
  readonly vdop: number;
  // e-obs nested acceleration
  readonly eobsRaw: number;
  readonly eobsAxes: number;
  readonly eobsHz: number;
  readonly eobsStart: number;
  // plain long-format acceleration
  readonly raw: [number, number, number];
  readonly calibrated: [number, number, number];
  readonly calibratedFrom: string | null;
  readonly start: number;
  /**
   * The column each of these fields is read from in this file (the first alternative its header has), as
   * written: the export writes the field back under it (gps:dop stays gps:dop, eobs:temperature stays
   * eobs:temperature). Kept in the device's attributes as `movebank-columns`.
   */
  readonly sourceColumns: Partial<Record<'temperature' | 'voltage' | 'hdop', string>>;
  /** Columns whose values go to a fix's `extra`, and those that go to a burst's. */
  readonly fixExtra: number[];
  readonly accExtra: number[];

  constructor(header: string[], file: string) {
    this.header = header.map((h) => h.trim());
    this.names = this.header.map((h) => h.toLowerCase());
    this.names.forEach((n, i) => {
      if (!this.index.has(n)) this.index.set(n, i);
    });
    /** Every column of the field present in the header, in order of preference. */
    const some = (f: Field) => COLUMNS[f].map((n) => this.index.get(n) ?? -1).filter((i) => i >= 0);
    /** The field's preferred column present in the header, or -1. */
    const at = (f: Field) => some(f)[0] ?? -1;
    this.time = at('time');
    if (this.time < 0) {
      throw new MovebankFormatError(
        `${file}: not a Movebank CSV: it has no "timestamp" column (its columns: ${this.names.slice(0, 12).join(', ')}${this.names.length > 12 ? ', ...' : ''})`,
      );
    }
    this.tag = at('tag');
    this.individual = at('individual');
    if (this.tag < 0 && this.individual < 0) {
      throw new MovebankFormatError(`${file}: not a Movebank CSV: it has neither an "individual-local-identifier" nor a "tag-local-identifier" column`);
    }
    this.lon = at('lon');
    this.lat = at('lat');
    this.sensorType = at('sensorType');
    this.taxon = at('taxon');
    this.study = at('study');
    this.event = at('event');
    this.visible = at('visible');
    this.manuallyValid = at('manuallyValid');
    this.outliers = this.names.flatMap((n, i) => (n.endsWith(OUTLIER_SUFFIX) && this.index.get(n) === i ? [i] : []));
    this.alt = some('alt');
    this.speed = at('speed');
    this.course = at('course');
    this.temperature = some('temperature');
    this.voltage = some('voltage');
    this.satellites = at('satellites');
    this.hdop = some('hdop');
    this.vdop = at('vdop');
    this.eobsRaw = at('eobsRaw');
    this.eobsAxes = at('eobsAxes');
    this.eobsHz = at('eobsHz');
    this.eobsStart = at('eobsStart');
    this.raw = [at('rawX'), at('rawY'), at('rawZ')];
    const tilt: [number, number, number] = [at('tiltX'), at('tiltY'), at('tiltZ')];
    const acc: [number, number, number] = [at('accX'), at('accY'), at('accZ')];
    const hasTilt = tilt.some((i) => i >= 0);
    this.calibrated = hasTilt ? tilt : acc;
    this.calibratedFrom = hasTilt ? 'tilt' : acc.some((i) => i >= 0) ? 'acceleration' : null;
    this.start = at('start');
    const named: Partial<Record<'temperature' | 'voltage' | 'hdop', string>> = {};
    for (const f of ['temperature', 'voltage', 'hdop'] as const) if (this[f][0] !== undefined) named[f] = this.names[this[f][0]]!;
    this.sourceColumns = named;

    const common = [this.time, this.visible, ...this.outliers, ...DEVICE_FIELDS.map(at)];
    const fixUsed = new Set([...common, this.lon, this.lat, ...this.alt, this.speed, this.course, ...this.temperature, ...this.voltage, this.satellites, ...this.hdop, this.vdop]);
    const accUsed = new Set([...common, this.eobsRaw, this.eobsAxes, this.eobsHz, this.eobsStart, ...this.raw, ...tilt, ...acc, this.start]);
    const all = this.names.map((_, i) => i).filter((i) => this.index.get(this.names[i]!) === i);
    this.fixExtra = all.filter((i) => !fixUsed.has(i));
    this.accExtra = all.filter((i) => !accUsed.has(i));
  }
}
