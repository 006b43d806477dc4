import { PassThrough, type Readable } from 'node:stream';
import { EXPERIENCE_FOLDER_ID, message, ROOT_FOLDER_ID, SHARED_FOLDER_PREFIX, type TreeFolder } from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { ALL_TIME, clampToWindow, type DeviceAccess, type TimeRange } from '../device/access.js';
import type { DeviceGate } from '../device/gate.js';
import { ReadRefusal } from '../token/service.js';
import { type Cell, emitCells } from './cells.js';
import { movebankAccelerationTable, movebankFixTable, movebankTime } from './movebank.js';
import type { ExportDevice, ExportRepository } from './repository.js';
import type { Table } from './tables.js';
import { csvSink } from './writers.js';

/**
 * Movebank's REST "direct-read" protocol (movebank/movebank-api-doc, movebank-api.md), read with a
 * personal access token: CSV answers of the entity types study, study_attribute, tag_type, sensor,
 * individual, tag, deployment and event, so that Movebank's clients (R's move2, a Python script) read
 * Wildtrack unchanged. Design (docs/api.md "Read API"):
 * - A study is what the console's tree shows as a folder, with everything below it: the organisation's
 *   root (study -1, every own device), each folder (its folder id), the sample devices while the
 *   experience switch is on (study 0), and each sharer's devices (study -(1 + the sharer's user id)).
 * - A device is at once an individual, a tag and a deployment, all three with the device's id; its
 *   sensors are GPS (sensor id device id × 10 + 0, type 653) and acceleration (× 10 + 1, type 2365683).
 * - The token's user reads what the console lets them read, through the one rule (device/access.ts):
 *   the tree's devices with their access, every read of a shared device's data cut to its share's data
 *   period (clampToWindow); events need the DownloadData right, as every download does.
 * - Event rows are the Movebank export's (movebank.ts: its columns and units, written once) with
 *   Movebank's attribute names as the API spells them (location-long → location_long, gps:hdop →
 *   gps_hdop), streamed a batch at a time.
 */

export const SENSOR_TYPES = [
  { id: 653, external_id: 'gps', name: 'GPS', is_location_sensor: true },
  { id: 2365683, external_id: 'acceleration', name: 'Acceleration', is_location_sensor: false },
] as const;
const GPS = 653;
const ACCELERATION = 2365683;

export const ENTITY_TYPES = ['study', 'study_attribute', 'tag_type', 'sensor', 'individual', 'tag', 'deployment', 'event'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** An attribute's name as the API writes it: the file's column name with '_' for '-' and ':'. */
export const apiName = (column: string) => column.replace(/[-:]/g, '_');

/** What event rows carry without `attributes` (Movebank's default). */
const DEFAULT_EVENT_ATTRIBUTES = ['timestamp', 'location_lat', 'location_long', 'individual_id', 'tag_id'];
/** The identifiers every event row of `attributes=all` starts with. */
const EVENT_ID_ATTRIBUTES = ['individual_id', 'deployment_id', 'tag_id', 'study_id', 'sensor_type_id', 'individual_local_identifier', 'tag_local_identifier', 'individual_taxon_canonical_name'];

interface StudyDevice {
  id: number;
  imei: string;
  caption: string;
  remark: string;
  access: DeviceAccess;
}

export interface Study {
  id: number;
  name: string;
  kind: 'own' | 'example' | 'shared';
  devices: StudyDevice[];
}

/** The query as Fastify parsed it: a parameter named twice arrives as an array. */
export type DirectReadQuery = Record<string, string | string[] | undefined>;

const param = (q: DirectReadQuery, name: string): string | undefined => {
  const v = q[name];
  const s = Array.isArray(v) ? v[v.length - 1] : v;
  return s === undefined || s.trim() === '' ? undefined : s.trim();
};

function integers(q: DirectReadQuery, name: string): number[] | undefined {
  const v = param(q, name);
  if (v === undefined) return undefined;
  const parts = v.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^-?\d{1,18}$/.test(p))) throw new ReadRefusal(400, 'directRead.badParam', { param: name, reason: 'directRead.integer' });
  return parts.map(Number);
}

/** sensor_type_id (or Movebank's sensor_type) as ids or external ids (653 or gps, 2365683 or acceleration); 400 for another. */
function sensorTypesOf(q: DirectReadQuery): number[] | undefined {
  const name = param(q, 'sensor_type_id') !== undefined ? 'sensor_type_id' : 'sensor_type';
  const v = param(q, name);
  if (v === undefined) return undefined;
  return v.split(',').map((p) => {
    const t = SENSOR_TYPES.find((s) => String(s.id) === p.trim() || s.external_id === p.trim().toLowerCase());
    if (!t) throw new ReadRefusal(400, 'directRead.badParam', { param: name, reason: 'directRead.sensorType' });
    return t.id;
  });
}

/** yyyyMMddHHmmssSSS (UTC; shorter forms to the second or the day taken too, as Movebank does). */
function timestamp(q: DirectReadQuery, name: string): number | undefined {
  const v = param(q, name);
  if (v === undefined) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})(\d{3})?)?$/.exec(v);
  const t = m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), +(m[7] ?? 0)) : Number.NaN;
  if (!m || !Number.isFinite(t) || new Date(t).getUTCMonth() !== +m[2]! - 1 || +(m[4] ?? 0) > 23 || +(m[5] ?? 0) > 59 || +(m[6] ?? 0) > 59) {
    throw new ReadRefusal(400, 'directRead.badParam', { param: name, reason: 'directRead.time' });
  }
  return t;
}

const parseAttributes = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};
const textOf = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** A device's attributes of one entity (kept by a Movebank import under their file names), as API names. */
function entityAttributes(device: ExportDevice, prefixes: readonly string[], skip: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(parseAttributes(device.attributes))) {
    const prefix = prefixes.find((p) => k.startsWith(p));
    const t = textOf(v);
    if (prefix === undefined || t === undefined || skip.includes(k)) continue;
    out.set(apiName(k.slice(prefix.length)), t);
  }
  return out;
}

const taxonOf = (device: ExportDevice): string => {
  const a = parseAttributes(device.attributes);
  return textOf(a['individual-taxon-canonical-name']) ?? textOf(a['animal-taxon']) ?? '';
};
const localId = (device: ExportDevice, key: 'tag-local-identifier' | 'individual-local-identifier'): string =>
  textOf(parseAttributes(device.attributes)[key]) ?? (key === 'tag-local-identifier' ? device.imei : device.caption || device.imei);

/** A small table: its headers and rows of cells (the reference entities; events stream instead). */
interface SmallTable {
  headers: string[];
  rows: Cell[][];
}

/** Rows of named values as a table: `base` columns first, then every other name met, in the order met. */
function tableOfRecords(base: readonly string[], records: readonly Map<string, Cell>[]): SmallTable {
  const headers = [...base];
  for (const r of records) for (const k of r.keys()) if (!headers.includes(k)) headers.push(k);
  return { headers, rows: records.map((r) => headers.map((h) => r.get(h) ?? null)) };
}

const yes = (b: boolean) => (b ? 'true' : 'false');

/** One answer: CSV bytes streamed as they are made. */
export interface DirectReadAnswer {
  stream: Readable;
}

export class DirectReadService {
  constructor(
    private readonly gate: DeviceGate,
    private readonly repo: ExportRepository,
  ) {}

  /** The caller's studies, from the tree the console shows them (see the module's comment). */
  async studies(caller: Caller): Promise<Study[]> {
    const { data, index } = await this.gate.readableTree(caller);
    const out: Study[] = [];
    const devicesBelow = (f: TreeFolder, into: StudyDevice[] = []): StudyDevice[] => {
      for (const d of f.Devices) {
        const e = index.get(d.IMEI);
        if (e) into.push({ id: e.id, imei: d.IMEI, caption: d.Caption, remark: d.RemarkName, access: e.access });
      }
      for (const c of f.Folders) devicesBelow(c, into);
      return into;
    };
    const walkOwn = (f: TreeFolder) => {
      out.push({ id: Number(f.IdStr), name: f.Name, kind: 'own', devices: devicesBelow(f) });
      f.Folders.forEach(walkOwn);
    };
    for (const top of data.Folders) {
      if (top.IdStr === ROOT_FOLDER_ID) walkOwn(top);
      else if (top.IdStr === EXPERIENCE_FOLDER_ID) out.push({ id: 0, name: top.Name, kind: 'example', devices: devicesBelow(top) });
      else if (top.IdStr.startsWith(SHARED_FOLDER_PREFIX)) out.push({ id: -(1 + Number(top.IdStr.slice(SHARED_FOLDER_PREFIX.length))), name: top.Name, kind: 'shared', devices: devicesBelow(top) });
    }
    return out;
  }

  /** Answers one request of a token's caller; a refusal is a ReadRefusal (400, 403). */
  async read(caller: Caller, q: DirectReadQuery): Promise<DirectReadAnswer> {
    const entity = param(q, 'entity_type');
    if (!entity || !(ENTITY_TYPES as readonly string[]).includes(entity)) throw new ReadRefusal(400, 'directRead.badParam', { param: 'entity_type', reason: 'directRead.entity' });
    const type = entity as EntityType;
    if (type === 'tag_type') return this.small(this.tagTypes());
    const studyIds = integers(q, type === 'sensor' && q.tag_study_id !== undefined ? 'tag_study_id' : 'study_id');
    const studies = await this.studies(caller);
    if (type === 'study') {
      const wanted = studyIds === undefined ? studies : studyIds.map((id) => this.studyOf(studies, id));
      return this.small(await this.studyTable(caller, wanted));
    }
    if (studyIds === undefined || studyIds.length !== 1) throw new ReadRefusal(400, 'directRead.needStudy', { entity: type });
    const study = this.studyOf(studies, studyIds[0]!);
    const sensorTypes = sensorTypesOf(q);
    const individuals = integers(q, 'individual_id');
    const localIds = param(q, 'individual_local_identifier')?.split(',').map((v) => v.trim());
    let devices = individuals ? study.devices.filter((d) => individuals.includes(d.id)) : study.devices;
    if (localIds) {
      const refs = await this.refs(devices);
      devices = devices.filter((_, i) => localIds.includes(localId(refs[i]!, 'individual-local-identifier')));
    }
    const start = timestamp(q, 'timestamp_start');
    const end = timestamp(q, 'timestamp_end');
    const range: TimeRange = { from: start ?? ALL_TIME.from, to: end ?? ALL_TIME.to };
    switch (type) {
      case 'study_attribute':
        return this.small(await this.studyAttributes(study, devices, sensorTypes));
      case 'sensor':
        return this.small(await this.sensors(devices, sensorTypes));
      case 'individual':
        return this.small(await this.individualTable(devices));
      case 'tag':
        return this.small(await this.tagTable(devices));
      case 'deployment':
        return this.small(await this.deploymentTable(devices));
      default:
        return this.events(study, devices, { sensorTypes, range, attributes: param(q, 'attributes') });
    }
  }

  /** A study by its id; one the caller has not (or that does not exist) is 403, as Movebank answers. */
  private studyOf(studies: readonly Study[], id: number): Study {
    const s = studies.find((x) => x.id === id);
    if (!s) throw new ReadRefusal(403, 'directRead.forbidden', { study: id });
    return s;
  }

  private small(t: SmallTable): DirectReadAnswer {
    const out = new PassThrough();
    const sink = csvSink(out, t.headers, false);
    void sink
      .rows(t.rows, emitCells)
      .then(() => sink.end())
      .catch((e: unknown) => out.destroy(e as Error));
    return { stream: out };
  }

  private tagTypes(): SmallTable {
    return {
      headers: ['description', 'external_id', 'id', 'is_location_sensor', 'name'],
      rows: SENSOR_TYPES.map((s) => ['', s.external_id, s.id, yes(s.is_location_sensor), s.name]),
    };
  }

  /** Each device's fixes as the caller may read them (its share's data period): first, last, how many. */
  private async spans(devices: readonly StudyDevice[], range: TimeRange = ALL_TIME) {
    const whole = devices.filter((d) => d.access.kind !== 'shared' || d.access.data === null);
    const spans = await this.repo.fixSpans(whole.map((d) => d.id), range.from, range.to);
    for (const d of devices) {
      if (whole.includes(d)) continue;
      const r = clampToWindow(range, d.access);
      if (r.from > r.to) continue;
      const one = (await this.repo.fixSpans([d.id], r.from, r.to)).get(d.id);
      if (one) spans.set(d.id, one);
    }
    return spans;
  }

  private async studyTable(caller: Caller, studies: readonly Study[]): Promise<SmallTable> {
    const all = [...new Map(studies.flatMap((s) => s.devices.map((d) => [d.id, d] as const))).values()];
    const [spans, bursts, refs] = await Promise.all([this.spans(all), this.repo.withBursts(all.map((d) => d.id)), this.repo.devices(all.map((d) => d.id))]);
    const refOf = new Map(refs.map((r) => [r.id, r]));
    const headers = [
      'id', 'name', 'acknowledgements', 'citation', 'go_public_date', 'grants_used', 'has_quota', 'i_am_owner', 'is_test', 'license_terms', 'license_type',
      'main_location_lat', 'main_location_long', 'number_of_deployments', 'number_of_individuals', 'number_of_tags', 'principal_investigator_address',
      'principal_investigator_email', 'principal_investigator_name', 'study_objective', 'study_type', 'suspend_license_terms', 'i_can_see_data',
      'there_are_data_which_i_cannot_see', 'i_have_download_access', 'i_am_collaborator', 'study_permission', 'timestamp_first_deployed_location',
      'timestamp_last_deployed_location', 'number_of_deployed_locations', 'taxon_ids', 'sensor_type_ids', 'contact_person_name',
    ];
    const rows = studies.map((s): Cell[] => {
      let first = Infinity;
      let last = -Infinity;
      let count = 0;
      for (const d of s.devices) {
        const sp = spans.get(d.id);
        if (!sp) continue;
        first = Math.min(first, sp.first);
        last = Math.max(last, sp.last);
        count += sp.count;
      }
      const taxa = [...new Set(s.devices.map((d) => taxonOf(refOf.get(d.id) ?? { id: d.id, imei: d.imei, caption: d.caption, attributes: '' })).filter((t) => t !== ''))];
      const sensors = ['GPS', ...(s.devices.some((d) => bursts.has(d.id)) ? ['Acceleration'] : [])];
      const n = s.devices.length;
      const download = s.devices.some((d) => d.access.rights.DownloadData);
      const partial = s.devices.some((d) => d.access.kind === 'shared' && d.access.data !== null && (d.access.data.from > Number.MIN_SAFE_INTEGER || d.access.data.to < Number.MAX_SAFE_INTEGER));
      const values: Record<string, Cell> = {
        id: s.id,
        name: s.name,
        has_quota: 'false',
        i_am_owner: yes(s.kind === 'own'),
        is_test: yes(s.kind === 'example'),
        license_type: 'CUSTOM',
        number_of_deployments: n,
        number_of_individuals: n,
        number_of_tags: n,
        principal_investigator_name: s.kind === 'shared' ? (s.devices[0]?.access.sharedBy?.name ?? '') : s.kind === 'own' ? caller.orgName : '',
        study_type: 'research',
        suspend_license_terms: 'true',
        i_can_see_data: 'true',
        there_are_data_which_i_cannot_see: yes(partial),
        i_have_download_access: yes(download),
        i_am_collaborator: yes(s.kind === 'shared'),
        study_permission: s.kind === 'own' ? 'data_manager' : s.kind === 'shared' ? 'collaborator' : 'na',
        timestamp_first_deployed_location: count > 0 ? movebankTime(first) : null,
        timestamp_last_deployed_location: count > 0 ? movebankTime(last) : null,
        number_of_deployed_locations: count,
        taxon_ids: taxa.join(','),
        sensor_type_ids: sensors.join(','),
        contact_person_name: '',
      };
      return headers.map((h) => values[h] ?? null);
    });
    return { headers, rows };
  }

  /** The sensors of the devices: GPS for every one, acceleration for those holding a burst. */
  private async sensors(devices: readonly StudyDevice[], types: readonly number[] | undefined): Promise<SmallTable> {
    const bursts = await this.repo.withBursts(devices.map((d) => d.id));
    const rows: Cell[][] = [];
    for (const d of devices) {
      if (!types || types.includes(GPS)) rows.push([d.id * 10, GPS, d.id]);
      if (bursts.has(d.id) && (!types || types.includes(ACCELERATION))) rows.push([d.id * 10 + 1, ACCELERATION, d.id]);
    }
    return { headers: ['id', 'sensor_type_id', 'tag_id'], rows };
  }

  private async refs(devices: readonly StudyDevice[]): Promise<ExportDevice[]> {
    const byId = new Map((await this.repo.devices(devices.map((d) => d.id))).map((r) => [r.id, r]));
    return devices.map((d) => byId.get(d.id) ?? { id: d.id, imei: d.imei, caption: d.caption, attributes: '' });
  }

  private async individualTable(devices: readonly StudyDevice[]): Promise<SmallTable> {
    const [refs, spans, bursts] = await Promise.all([this.refs(devices), this.spans(devices), this.repo.withBursts(devices.map((d) => d.id))]);
    const base = ['id', 'local_identifier', 'nick_name', 'taxon_canonical_name', 'comments', 'sex', 'ring_id', 'timestamp_start', 'timestamp_end', 'number_of_events', 'number_of_deployments', 'sensor_type_ids'];
    return tableOfRecords(
      base,
      refs.map((r, i) => {
        const sp = spans.get(r.id);
        const m = new Map<string, Cell>([
          ['id', r.id],
          ['local_identifier', localId(r, 'individual-local-identifier')],
          ['nick_name', devices[i]!.remark],
          ['taxon_canonical_name', taxonOf(r)],
          ['timestamp_start', sp ? movebankTime(sp.first) : null],
          ['timestamp_end', sp ? movebankTime(sp.last) : null],
          ['number_of_events', sp?.count ?? 0],
          ['number_of_deployments', 1],
          ['sensor_type_ids', bursts.has(r.id) ? 'GPS,Acceleration' : 'GPS'],
        ]);
        for (const [k, v] of entityAttributes(r, ['animal-', 'individual-'], ['individual-local-identifier', 'individual-taxon-canonical-name', 'animal-taxon'])) if (!m.has(k)) m.set(k, v);
        return m;
      }),
    );
  }

  private async tagTable(devices: readonly StudyDevice[]): Promise<SmallTable> {
    const refs = await this.refs(devices);
    const base = ['id', 'local_identifier', 'manufacturer_name', 'model', 'serial_no', 'weight', 'comments'];
    return tableOfRecords(
      base,
      refs.map((r) => {
        const m = new Map<string, Cell>([
          ['id', r.id],
          ['local_identifier', localId(r, 'tag-local-identifier')],
        ]);
        for (const [k, v] of entityAttributes(r, ['tag-'], ['tag-local-identifier'])) if (!m.has(k)) m.set(k === 'mass' ? 'weight' : k, v);
        return m;
      }),
    );
  }

  private async deploymentTable(devices: readonly StudyDevice[]): Promise<SmallTable> {
    const [refs, spans] = await Promise.all([this.refs(devices), this.spans(devices)]);
    const base = ['id', 'local_identifier', 'individual_id', 'tag_id', 'deploy_on_timestamp', 'deploy_off_timestamp', 'comments'];
    return tableOfRecords(
      base,
      refs.map((r) => {
        const sp = spans.get(r.id);
        const m = new Map<string, Cell>([
          ['id', r.id],
          ['local_identifier', textOf(parseAttributes(r.attributes)['deployment-id']) ?? `${localId(r, 'individual-local-identifier')}-${localId(r, 'tag-local-identifier')}`],
          ['individual_id', r.id],
          ['tag_id', r.id],
        ]);
        for (const [k, v] of entityAttributes(r, ['deploy-', 'deployment-'], ['deployment-id'])) m.set(k.startsWith('on_') || k.startsWith('off_') ? `deploy_${k}` : k, v);
        if (!m.has('deploy_on_timestamp') && sp) m.set('deploy_on_timestamp', movebankTime(sp.first));
        return m;
      }),
    );
  }

  private async studyAttributes(study: Study, devices: readonly StudyDevice[], types: readonly number[] | undefined): Promise<SmallTable> {
    const rows: Cell[][] = [];
    const typed = (name: string) =>
      name === 'timestamp' || name.endsWith('_timestamp') ? 'datetime' : name === 'visible' || name.endsWith('_outlier') ? 'boolean' : /^(location_|height_|ground_speed|heading|gps_|external_temperature|tag_voltage|acceleration_)/.test(name) ? 'decimal' : 'string';
    for (const sensor of [GPS, ACCELERATION]) {
      if (types && !types.includes(sensor)) continue;
      const names = new Set<string>();
      for (const t of await this.tablesOf(devices.filter((d) => d.access.rights.DownloadData), sensor, ALL_TIME)) for (const h of t.table.headers) names.add(apiName(h));
      for (const n of [...names].sort()) rows.push([study.id, sensor, n, typed(n)]);
    }
    return { headers: ['study_id', 'sensor_type_id', 'short_name', 'data_type'], rows };
  }

  /** Each device's Movebank table of one sensor over the part of `range` its access lets the caller read. */
  private async tablesOf(devices: readonly StudyDevice[], sensor: number, range: TimeRange): Promise<{ device: StudyDevice; ref: ExportDevice; table: Table<Cell[]> }[]> {
    const refs = await this.refs(devices);
    const bursts = sensor === ACCELERATION ? await this.repo.withBursts(devices.map((d) => d.id)) : null;
    const out: { device: StudyDevice; ref: ExportDevice; table: Table<Cell[]> }[] = [];
    for (let i = 0; i < devices.length; i++) {
      const device = devices[i]!;
      const r = clampToWindow(range, device.access);
      if (r.from > r.to || (bursts && !bursts.has(device.id))) continue;
      const q = { deviceId: device.id, from: r.from, to: r.to };
      const table = sensor === GPS ? await movebankFixTable(this.repo, refs[i]!, q) : movebankAccelerationTable(this.repo, refs[i]!, q);
      out.push({ device, ref: refs[i]!, table });
    }
    return out;
  }

  /**
   * Event rows, streamed: the headers are known once each device's table is (a pass over its extras, as
   * the export makes), then rows go out a batch at a time. Only devices the caller may download.
   */
  private async events(study: Study, devices: readonly StudyDevice[], o: { sensorTypes: readonly number[] | undefined; range: TimeRange; attributes: string | undefined }): Promise<DirectReadAnswer> {
    const readable = devices.filter((d) => d.access.rights.DownloadData);
    if (readable.length === 0 && study.devices.length > 0 && !study.devices.some((d) => d.access.rights.DownloadData)) throw new ReadRefusal(403, 'directRead.noDownload', { study: study.id });
    const parts: { sensor: number; device: StudyDevice; ref: ExportDevice; table: Table<Cell[]> }[] = [];
    for (const sensor of [GPS, ACCELERATION]) {
      if (o.sensorTypes && !o.sensorTypes.includes(sensor)) continue;
      for (const t of await this.tablesOf(readable, sensor, o.range)) parts.push({ sensor, ...t });
    }
    parts.sort((a, b) => a.device.id - b.device.id || a.sensor - b.sensor);
    let headers: string[];
    if (o.attributes === undefined) headers = DEFAULT_EVENT_ATTRIBUTES;
    else if (o.attributes === 'all') {
      const names = new Set(EVENT_ID_ATTRIBUTES);
      for (const p of parts) for (const h of p.table.headers) names.add(apiName(h));
      names.delete('sensor_type');
      headers = [...names];
    } else headers = [...new Set(o.attributes.split(',').map((a) => apiName(a.trim())).filter((a) => a !== ''))];
    const at = new Map(headers.map((h, i) => [h, i]));
    const out = new PassThrough();
    const sink = csvSink(out, headers, false);
    const write = async () => {
      for (const p of parts) {
        const columns = p.table.headers.map((h) => at.get(apiName(h)) ?? -1);
        const fixed: [number, Cell][] = (
          [
            ['individual_id', p.device.id],
            ['deployment_id', p.device.id],
            ['tag_id', p.device.id],
            ['study_id', study.id],
            ['sensor_type_id', p.sensor],
            ['individual_local_identifier', localId(p.ref, 'individual-local-identifier')],
            ['tag_local_identifier', localId(p.ref, 'tag-local-identifier')],
            ['individual_taxon_canonical_name', taxonOf(p.ref) || null],
          ] as [string, Cell][]
        )
          .map(([k, v]): [number, Cell] => [at.get(k) ?? -1, v])
          .filter(([i]) => i >= 0);
        for await (const batch of p.table.batches()) {
          const rows = batch.map((cells) => {
            const row = new Array<Cell>(headers.length).fill(null);
            for (let i = 0; i < columns.length; i++) if (columns[i]! >= 0 && cells[i] !== null) row[columns[i]!] = cells[i]!;
            for (const [i, v] of fixed) if (row[i] === null) row[i] = v;
            return row;
          });
          await sink.rows(rows, p.table.emit);
        }
      }
      await sink.end();
    };
    void write().catch((e: unknown) => out.destroy(e as Error));
    return { stream: out };
  }
}

/** A refusal's sentence in the caller's language (a parameter's reason is a message of its own). */
export function refusalText(lang: 'zh' | 'en', e: ReadRefusal): string {
  const params = { ...e.params };
  if (typeof params.reason === 'string') params.reason = message(lang, params.reason);
  return message(lang, e.messageKey, params);
}
