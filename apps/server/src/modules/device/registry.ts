import { randomBytes } from 'node:crypto';
import {
  BatteryType,
  DeviceStatus,
  DeviceType,
  ImeiSchema,
  type InstrSupportName,
  INSTR_SUPPORT_NAMES,
  instrSupportMask,
  sensorMask,
  type SensorFlagName,
  SENSOR_FLAG_NAMES,
  SpeciesType,
} from '@wildtrack/contract';
import type { DeviceRepository } from './repository.js';
import { now } from '../../lib/clock.js';

export interface RegisterDeviceInput {
  orgId: number;
  imei: string;
  type: number;
  model?: string;
  caption?: string;
  sensors?: readonly SensorFlagName[];
  instrSupport?: readonly InstrSupportName[];
  speciesType?: number;
  batteryType?: number;
  status?: number;
  folderId?: number | null;
  example?: boolean;
  description?: string;
  attributes?: Record<string, unknown>;
  secondLevelFix?: boolean;
}

export class DeviceInputError extends Error {}

export const DEVICE_TYPE_NAMES: Record<string, number> = { unknown: DeviceType.Unknown, tracker: DeviceType.Tracker, vhf: DeviceType.VHFReceiver, phone: DeviceType.Phone };
export const SPECIES_NAMES: Record<string, number> = { unknown: SpeciesType.Unknown, other: SpeciesType.OtherSpecies, bird: SpeciesType.Bird, beast: SpeciesType.Beast };
export const BATTERY_NAMES: Record<string, number> = { unknown: BatteryType.Unknown, li: BatteryType.Li, lic: BatteryType.LIC, lisocl2: BatteryType.LiSOCl2Added };

export function parseSensors(text: string): SensorFlagName[] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (!SENSOR_FLAG_NAMES.includes(n as SensorFlagName)) throw new DeviceInputError(`unknown sensor ${n}; known: ${SENSOR_FLAG_NAMES.join(', ')}`);
  }
  return names as SensorFlagName[];
}

/** A comma-separated list of instruction abilities (InstrSupport names); '' is none. */
export function parseInstrSupport(text: string): InstrSupportName[] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (!INSTR_SUPPORT_NAMES.includes(n as InstrSupportName)) throw new DeviceInputError(`unknown instruction ability ${n}; known: ${INSTR_SUPPORT_NAMES.join(', ')}`);
  }
  return names as InstrSupportName[];
}

/**
 * Registers devices and lists them for the operator (CLI, Movebank import, the sample fleet): no caller,
 * no access rules. What a signed-in user does with devices is DeviceGate's.
 */
export class DeviceRegistry {
  constructor(private readonly devices: DeviceRepository) {}

  /** Registers a device and returns its ingest secret (shown once to the operator). */
  async register(input: RegisterDeviceInput): Promise<{ id: number; imei: string; secret: string }> {
    const parsed = ImeiSchema.safeParse(input.imei);
    if (!parsed.success) throw new DeviceInputError(`IMEI ${JSON.stringify(input.imei)}: 3-40 letters, digits or _.:-`);
    const imei = parsed.data;
    if (await this.devices.findByImei(imei)) throw new DeviceInputError(`IMEI ${imei} is registered already`);
    if (input.folderId !== undefined && input.folderId !== null && !(await this.devices.folderInOrg(input.folderId, input.orgId))) {
      throw new DeviceInputError(`folder ${input.folderId} is not in this organisation`);
    }
    const secret = randomBytes(24).toString('base64url');
    const id = await this.devices.insert({
      org_id: input.orgId,
      folder_id: input.folderId ?? null,
      imei,
      type: input.type,
      model: input.model ?? '',
      caption: input.caption?.trim() || imei,
      sensors: sensorMask(input.sensors ?? []),
      instr_support: instrSupportMask(input.instrSupport ?? []),
      species_type: input.speciesType ?? SpeciesType.Unknown,
      battery_type: input.batteryType ?? BatteryType.Unknown,
      status: input.status ?? DeviceStatus.Working,
      example: input.example ? 1 : 0,
      second_level_fix: input.secondLevelFix ? 1 : 0,
      description: input.description ?? '',
      attributes: JSON.stringify(input.attributes ?? {}),
      secret,
      effective_time: null,
      failure_time: null,
      last_work_time: null,
      last_voltage: null,
      created_at: now(),
    });
    return { id, imei, secret };
  }

  async orgIdByName(name: string): Promise<number> {
    const id = await this.devices.orgId(name);
    if (id === undefined) throw new DeviceInputError(`no organisation named ${name}`);
    return id;
  }

  list(orgId?: number) {
    return this.devices.list(orgId);
  }
}
