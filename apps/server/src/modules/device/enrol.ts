import { AppError, FieldRefusal } from '../../http/errors.js';
import { Code, INGEST_BASE, ingestHeaders, type RegisterDeviceInput, type RegisteredDevice } from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { now as clockNow } from '../../lib/clock.js';
import type { DeviceGate } from './gate.js';
import type { DeviceRegistry } from './registry.js';
import type { DeviceRepository } from './repository.js';

/** Where the example request is sent: the console's own address, which the text leaves to the reader. */
const SERVER_PLACEHOLDER = '$WILDTRACK_URL';

/** A curl command sending one fix as the device would, signed with its secret at `at` (valid for the replay window only). */
export function exampleIngestRequest(imei: string, secret: string, at: number): string {
  const path = `${INGEST_BASE}/batch`;
  const body = JSON.stringify({ fixes: { t: [at], lon: [116.3913], lat: [39.9075] } });
  const headers = { ...ingestHeaders({ imei, secret, path, body, now: at }), 'content-type': 'application/json' };
  return [`curl -X POST "${SERVER_PLACEHOLDER}${path}"`, ...Object.entries(headers).map(([k, v]) => `  -H '${k}: ${v}'`), `  --data '${body}'`].join(' \\\n');
}

/**
 * A real device registered from the console by the organisation's primary user (issue 28 item 1): the
 * registry's rules (the IMEI once, the folder the organisation's), the caller's rights first, and the
 * secret answered once with an example signed request. Nothing is written on a refusal.
 */
export class DeviceEnrolment {
  constructor(
    private readonly registry: DeviceRegistry,
    private readonly devices: DeviceRepository,
    private readonly gate: DeviceGate,
  ) {}

  async register(caller: Caller, input: RegisterDeviceInput): Promise<RegisteredDevice> {
    const { orgId, userId } = caller.session;
    if (!(await this.devices.isPrimary(orgId, userId))) throw new AppError(Code.Forbidden, 'device.registerPrimaryOnly');
    const folderId = await this.gate.ownFolder(caller, input.folderId);
    if (await this.devices.findByImei(input.imei)) throw new FieldRefusal(['imei'], 'validation.imeiRegistered');
    const caption = input.caption || input.imei;
    const r = await this.registry.register({
      orgId,
      imei: input.imei,
      type: input.deviceType,
      model: input.model,
      caption,
      sensors: input.sensors,
      instrSupport: input.instrSupport,
      batteryType: input.batteryType,
      folderId,
    });
    return { IMEI: r.imei, Caption: caption, Secret: r.secret, ExampleRequest: exampleIngestRequest(r.imei, r.secret, clockNow()) };
  }
}
