import { Code, formatTime, type MountInfo, type MeasureName, message, parseTime, parseUploadUrl, SpeciesType } from '@wildtrack/contract';
import { AppError, FieldRefusal } from '../../http/errors.js';
import type { Caller } from '../../http/caller.js';
import { type DeviceAccess, requireRight, type Right } from './access.js';
import type { DeviceRepository } from './repository.js';
import { now } from '../../lib/clock.js';

/** Animal info as stored (mount_info.info): the contract's shape with times as epoch ms. */
export interface MountDoc {
  AnimalInfo: { Species: string; ScientificName: string; Sex: number; Age: number; Weight: number | null };
  WorkInfo: {
    CaptureTime: number | null;
    MountTime: number | null;
    ReleaseTime: number | null;
    ReleaseLon: number | null;
    ReleaseLat: number | null;
    ReleaseSite: string;
    Images: string[];
  };
  AdditionalInfo: { Name: string; Value: string }[];
  Measurements: Partial<Record<MeasureName, number | null>>;
}

export function emptyMountDoc(): MountDoc {
  return {
    AnimalInfo: { Species: '', ScientificName: '', Sex: 0, Age: 0, Weight: null },
    WorkInfo: { CaptureTime: null, MountTime: null, ReleaseTime: null, ReleaseLon: null, ReleaseLat: null, ReleaseSite: '', Images: [] },
    AdditionalInfo: [],
    Measurements: {},
  };
}

/** Builds a stored document from the few facts an importer or the sample fleet knows. */
export function mountDoc(facts: {
  species?: string; scientificName?: string; sex?: number; age?: number; weight?: number | null; mountTime?: number | null;
  additional?: Record<string, string | number | null | undefined>;
}): MountDoc {
  const doc = emptyMountDoc();
  doc.AnimalInfo = {
    Species: facts.species ?? '',
    ScientificName: facts.scientificName ?? '',
    Sex: facts.sex ?? 0,
    Age: facts.age ?? 0,
    Weight: facts.weight ?? null,
  };
  doc.WorkInfo.MountTime = facts.mountTime ?? null;
  doc.AdditionalInfo = Object.entries(facts.additional ?? {})
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([Name, v]) => ({ Name, Value: String(v) }));
  return doc;
}

export function readMountDoc(json: string | undefined): MountDoc {
  if (!json) return emptyMountDoc();
  const doc = JSON.parse(json) as Partial<MountDoc>;
  const base = emptyMountDoc();
  return {
    AnimalInfo: { ...base.AnimalInfo, ...doc.AnimalInfo },
    WorkInfo: { ...base.WorkInfo, ...doc.WorkInfo },
    AdditionalInfo: doc.AdditionalInfo ?? [],
    Measurements: doc.Measurements ?? {},
  };
}

const SPECIES_KEY = { [SpeciesType.Bird]: 'species.bird', [SpeciesType.Beast]: 'species.beast' } as const;

/**
 * What the mount calls need of the device console, passed in (the console's DeviceGate is one): a device
 * through the caller's access. Named here rather than imported, since the console shows the sample devices'
 * mount info (console → samples → mount) and would otherwise be imported back.
 */
export interface MountDevices {
  resolve(caller: Caller, imei: string): Promise<{ id: number; imei: string; species_type: number; access: DeviceAccess }>;
}

/** Get and save calls per species type (§7.2): a bird's info through the bird calls, and so on. */
export class MountService {
  constructor(
    private readonly devices: MountDevices,
    private readonly repo: DeviceRepository,
  ) {}

  /** The device through the caller's access (and the right a write needs, checked before anything about the device is said), of this species. */
  private async device(caller: Caller, imei: string, species: 'bird' | 'beast' | 'other', right?: Right) {
    const d = await this.devices.resolve(caller, imei);
    if (right) requireRight(d.access, right);
    const kind = d.species_type === SpeciesType.Bird ? 'bird' : d.species_type === SpeciesType.Beast ? 'beast' : 'other';
    if (kind !== species) {
      const key = species === 'bird' ? SPECIES_KEY[SpeciesType.Bird] : species === 'beast' ? SPECIES_KEY[SpeciesType.Beast] : 'species.other';
      throw new AppError(Code.Failed, 'device.wrongSpecies', { species: message(caller.lang, key) });
    }
    return d;
  }

  async get(caller: Caller, imei: string, species: 'bird' | 'beast' | 'other'): Promise<MountInfo> {
    const d = await this.device(caller, imei, species);
    const doc = readMountDoc(await this.repo.mountInfo(Number(d.id)));
    const w = doc.WorkInfo;
    return {
      IMEI: d.imei,
      AnimalInfo: doc.AnimalInfo,
      WorkInfo: {
        CaptureTime: formatTime(w.CaptureTime, caller.zone),
        MountTime: formatTime(w.MountTime, caller.zone),
        ReleaseTime: formatTime(w.ReleaseTime, caller.zone),
        ReleaseLon: w.ReleaseLon,
        ReleaseLat: w.ReleaseLat,
        ReleaseSite: w.ReleaseSite,
        Images: w.Images,
      },
      AdditionalInfo: doc.AdditionalInfo,
      Measurements: doc.Measurements,
    };
  }

  async save(caller: Caller, info: MountInfo, species: 'bird' | 'beast' | 'other'): Promise<void> {
    const d = await this.device(caller, info.IMEI, species, 'EditDevice');
    const time = (field: 'CaptureTime' | 'MountTime' | 'ReleaseTime'): number | null => {
      const text = info.WorkInfo[field].trim();
      if (text === '') return null;
      const ms = parseTime(text, caller.zone);
      if (ms === null) {
        throw new FieldRefusal(['WorkInfo', field], 'validation.time');
      }
      return ms;
    };
    // Pictures of the caller's organisation only, or ones the device shows already (issue 11, M4): a picture
    // seen once can't be put in another device's info to be seen again.
    const shown = new Set(readMountDoc(await this.repo.mountInfo(Number(d.id))).WorkInfo.Images);
    info.WorkInfo.Images.forEach((url, i) => {
      if (shown.has(url) || parseUploadUrl(url)?.org === String(caller.session.orgId)) return;
      throw new FieldRefusal(['WorkInfo', 'Images', i], 'validation.imageForeign');
    });
    const doc: MountDoc = {
      AnimalInfo: info.AnimalInfo,
      WorkInfo: {
        CaptureTime: time('CaptureTime'),
        MountTime: time('MountTime'),
        ReleaseTime: time('ReleaseTime'),
        ReleaseLon: info.WorkInfo.ReleaseLon,
        ReleaseLat: info.WorkInfo.ReleaseLat,
        ReleaseSite: info.WorkInfo.ReleaseSite,
        Images: info.WorkInfo.Images,
      },
      AdditionalInfo: info.AdditionalInfo.map((f) => ({ Name: f.Name.trim(), Value: f.Value })),
      Measurements: info.Measurements,
    };
    await this.repo.setMountInfo(Number(d.id), JSON.stringify(doc), now());
  }
}
