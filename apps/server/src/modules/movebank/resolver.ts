import { DeviceType, type SensorFlagName } from '@wildtrack/contract';
import { mountDoc } from '../device/mount.js';
import { DeviceInputError, type DeviceRegistry } from '../device/registry.js';
import { mountInfoOf, modelOf, type Reference } from './reference.js';
import { speciesTypeOf } from './taxon.js';
import { movebankImei } from './values.js';

/**
 * The device writes the import makes besides registering: attributes, animal info and sensor flags.
 * Declared here so that the module needs no other module's repository; the device repository fits it.
 */
export interface MovebankDeviceStore {
  findByImei(imei: string): Promise<{ id: number; org_id: number; attributes: string } | undefined>;
  setAttributes(deviceId: number, attributes: string): Promise<void>;
  setMountInfo(deviceId: number, info: string, now: number): Promise<void>;
  addSensors(deviceId: number, mask: number): Promise<void>;
  /** Archives the device when its last record is older than its schedule allows as of `now` (answers whether it did). */
  archiveIfPast(deviceId: number, now: number): Promise<boolean>;
}

/** A device the file's rows go to; `index` is its place in the order the file named them. */
export interface ResolvedDevice {
  id: number;
  index: number;
  study: string;
  taxon: string;
}

export type Resolution = ResolvedDevice | { refused: string };

export interface ResolverOptions {
  orgId: number;
  /** Folder for the devices the import creates; devices that exist stay where they are. */
  folderId: number | null;
  reference?: Reference | undefined;
  now: number;
  /** The columns the file's values are read from (Layout.sourceColumns), known once its header is read. */
  columns?: (() => Record<string, string> | undefined) | undefined;
}

/**
 * Each tag on each individual is one device of the organisation: found among the IMEIs derived from
 * the pair (the plain one, the alternative another pair that sanitised alike leaves it, and one of the
 * organisation's own for when another organisation imported the same public study first), created in
 * the organisation's folder under the first of them that is free, its attributes and animal info
 * brought up to date from the file and the reference data. Each pair is resolved once per import.
 */
export class DeviceResolver {
  readonly counts = { created: 0, reused: 0 };
  private readonly known = new Map<string, Resolution>();
  private readonly devices: ResolvedDevice[] = [];
  private readonly createdIds = new Set<number>();

  constructor(
    private readonly registry: Pick<DeviceRegistry, 'register'>,
    private readonly store: MovebankDeviceStore,
    private readonly opts: ResolverOptions,
  ) {}

  /** Whether this import created the device (so it has no fixes from before). */
  isNew(id: number): boolean {
    return this.createdIds.has(id);
  }

  /** The devices resolved so far, in the order the file named them. */
  get resolved(): readonly ResolvedDevice[] {
    return this.devices;
  }

  async resolve(tag: string, individual: string, study: string, taxon: string, sensor: SensorFlagName): Promise<Resolution> {
    const key = `${tag}\u0000${individual}`;
    const known = this.known.get(key);
    if (known) return known;
    const resolution = await this.find(tag, individual, study, taxon, sensor);
    this.known.set(key, resolution);
    return resolution;
  }

  private async find(tag: string, individual: string, study: string, taxon: string, sensor: SensorFlagName): Promise<Resolution> {
    const { orgId, folderId, reference, now } = this.opts;
    const refRows = reference?.find(tag, individual);
    const attributes: Record<string, unknown> = {
      source: 'movebank',
      'study-name': study,
      'individual-taxon-canonical-name': taxon,
      'tag-local-identifier': tag,
      'individual-local-identifier': individual,
    };
    const columns = this.opts.columns?.();
    if (columns && Object.keys(columns).length > 0) attributes['movebank-columns'] = columns;
    if (refRows?.[0]) {
      attributes.reference = refRows[0];
      if (refRows.length > 1) attributes.otherDeployments = refRows.slice(1);
    }
    const sameTag = (attrs: string) => {
      const a = JSON.parse(attrs) as Record<string, unknown>;
      return a['tag-local-identifier'] === tag && a['individual-local-identifier'] === individual;
    };
    // every candidate is looked at before a free one is taken, so a re-import finds the device it made
    let existing: Awaited<ReturnType<MovebankDeviceStore['findByImei']>>;
    let free: string | undefined;
    for (const candidate of [movebankImei(tag, individual), movebankImei(tag, individual, true), movebankImei(tag, individual, true, orgId)]) {
      const found = await this.store.findByImei(candidate);
      if (!found) free ??= candidate;
      else if (found.org_id === orgId && sameTag(found.attributes)) {
        existing = found;
        break;
      }
    }
    const imei = free;
    if (!existing && imei === undefined) return { refused: `no free device id for tag "${tag}" on "${individual}": the ids derived from it belong to other devices` };
    let id: number;
    if (existing) {
      id = existing.id;
      const before = JSON.parse(existing.attributes) as Record<string, unknown>;
      const merged = { ...before, ...attributes };
      if (JSON.stringify(merged) !== existing.attributes) await this.store.setAttributes(id, JSON.stringify(merged));
      this.counts.reused += 1;
    } else {
      try {
        id = (
          await this.registry.register({
            orgId,
            imei: imei!,
            type: DeviceType.Tracker,
            model: modelOf(refRows),
            caption: individual || tag,
            sensors: [sensor],
            speciesType: speciesTypeOf(taxon || refRows?.[0]?.taxon_canonical_name),
            folderId,
            attributes,
          })
        ).id;
      } catch (err) {
        if (!(err instanceof DeviceInputError)) throw err;
        return { refused: `device ${imei} not created: ${err.message}` };
      }
      this.counts.created += 1;
      this.createdIds.add(id);
    }
    const info = refRows && mountInfoOf(refRows, taxon || undefined);
    if (info) {
      const doc = mountDoc({
        species: info.Species ?? '', scientificName: info.ScientificName ?? '', sex: info.Sex, age: info.Age, weight: info.Weight,
        mountTime: info.MountTime, additional: info.AdditionalInfo,
      });
      await this.store.setMountInfo(id, JSON.stringify(doc), now);
    }
    const device: ResolvedDevice = { id, index: this.devices.length, study, taxon };
    this.devices.push(device);
    return device;
  }
}
