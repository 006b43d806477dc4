import { PassThrough } from 'node:stream';
import {
  type calls,
  Code,
  type Fence,
  type ImportedFence,
  FENCE_RULE_TYPE,
  type FenceInstr,
  type FenceRule,
  type FenceSettings,
  type FenceShape,
  formatTime,
  GnssCollectionSchema,
  type InOrOut,
  type InstructionParams,
  InstructionParamsSchema,
  message,
  PostbackSchema,
} from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { AppError, FieldRefusal } from '../../http/errors.js';
import { Listeners } from '../../lib/listeners.js';
import { requireRight } from '../device/access.js';
import type { DeviceGate, ResolvedDevice } from '../device/gate.js';
import { describeParams } from '../instruction/service.js';
import { captionFor } from '../device/samples.js';
import { type FenceGeometry, fenceGeometry, selfIntersects } from './geometry.js';
import type { ImportedShapes } from './packed-shapes.js';
import type { FenceRepository, FenceRow, FenceValues, RuleRow } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';
import type { FileAnswer } from '../../http/calls.js';
import { type FenceFeature, writeFences } from './export-file.js';

/** How many fences an export reads at a time (a shape may be 5,000 vertices). */
const EXPORT_PAGE = 20;

type ListBody = z.output<typeof calls.GetFenceList.body>;
type ExportBody = z.output<typeof calls.ExportFences.body>;
type CreateBody = z.output<typeof calls.CreateFence.body>;
type UpdateBody = z.output<typeof calls.UpdateFence.body>;

export const fenceNotFound = () => new AppError(Code.NotFound, 'fence.notFound');

/** The instructions a fence's rule sends (collection time, then transmission frequency). */
export function fenceInstructions(s: Pick<FenceSettings, 'collection' | 'postback'>): InstructionParams[] {
  return [
    { Type: 'ACQUISITION_FREQUENCY', GNSS: s.collection },
    { Type: 'POSTBACK_FREQUENCY', Postback: s.postback },
  ];
}

/** A shape's own faults the schema can't judge: a polygon crossing itself (601 naming `shape`). */
export function checkShape(shape: FenceShape, path: (string | number)[] = ['shape']): void {
  if (shape.Type === 'Polygon' && selfIntersects(shape.Coordinates)) throw new FieldRefusal(path, 'validation.fence.selfIntersecting');
}

/** The row values of a fence from its form. */
export function fenceValues(label: string, shape: FenceShape | FenceGeometry, s: FenceSettings, zone: string): FenceValues {
  const geometry = 'Type' in shape ? fenceGeometry(shape) : shape;
  return {
    label,
    ...geometry,
    enabled: s.enabled,
    in_or_out: s.inOrOut,
    rule_type: s.ruleType,
    allow_send_instr: s.allowSendInstr,
    instrs: JSON.stringify(fenceInstructions(s)),
    time_zone: s.timeZone ?? zone,
  };
}

/** Whether a collection is minute-based: at least hourly. */
function highFrequency(p: InstructionParams): boolean {
  if (p.Type !== 'ACQUISITION_FREQUENCY') return false;
  return p.GNSS?.Mode === 'ADAPTIVE_HIGH' || (p.GNSS?.Mode === 'INTERVAL' && p.GNSS.IntervalMinutes <= 60);
}

/**
 * Geofences (§3 Fence / FenceRule, §5, §7.2 Fence/*). A fence is its organisation's: its users see and
 * change it (rules only on devices they hold RemoteInstr on); the sample organisation's fences are shown
 * read-only while the experience switch is on; another organisation's fence with a rule on one of the
 * caller's organisation's devices (made under a share) is shown to the devices' owner, marked as whose it is,
 * and "deleting" it takes the owner's devices out of it; anyone else's don't exist (fence.notFound). Rules
 * on devices the caller can't read are neither listed nor changed.
 *
 * A rule acts with its fence's organisation's rights at the moment it acts (issue 26 H1): on another
 * organisation's device only while a share grants RemoteInstr (ruleMayAct, asked by ingest and by
 * InstructionService.sendForRule), and withdrawUngranted takes out the rules whose grant ended (a share
 * revoked, changed, expired or ended with its sharer's account), device rules with a removal for the device.
 */
export class FenceService {
  /** Told after any change to fences (ingest's index reloads). */
  private readonly changes = new Listeners<[]>('a fence change');

  constructor(
    private readonly devices: DeviceGate,
    private readonly repo: FenceRepository,
  ) {}

  /** Adds a listener told after any change to fences (each evaluator's index reloads); returns its removal. */
  onChange(listener: () => void): () => void {
    return this.changes.add(listener);
  }

  private changed(): void {
    this.changes.emit();
  }

  private async sampleOrgIds(): Promise<number[]> {
    const rows = await this.repo.db.selectFrom('organisations').select('id').where('is_samples', '=', 1).execute();
    return rows.map((r) => Number(r.id));
  }

  /** The organisations whose fences the caller sees: their own, and the samples' while the switch is on. */
  private async visibleOrgs(caller: Caller): Promise<number[]> {
    const own = [caller.session.orgId];
    if (!(await this.repo.experienceFlag(caller.session.userId))) return own;
    return [...own, ...(await this.sampleOrgIds())];
  }

  /**
   * A fence the caller may see (write: may change): 1002 fence.notFound otherwise, 1003 for a sample one and
   * for another organisation's with rules on the caller's devices (seen, not changed: see `delete`).
   */
  private async fenceFor(caller: Caller, fenceId: string, write: boolean): Promise<FenceRow> {
    const row = await this.repo.get(Number(fenceId));
    if (!row) throw fenceNotFound();
    if (row.org_id === caller.session.orgId) return row;
    if (row.is_samples === 1 && (await this.repo.experienceFlag(caller.session.userId))) {
      if (write) throw new AppError(Code.Forbidden, 'fence.readOnly');
      return row;
    }
    if ((await this.repo.rulesOnOrg(row.id, caller.session.orgId)).length > 0) {
      if (write) throw new AppError(Code.Forbidden, 'fence.foreign', { org: row.org_name });
      return row;
    }
    throw fenceNotFound();
  }

  /**
   * Which of these organisations' fences may act on the device now (hold RemoteInstr on it: its own
   * device, or a share open now that grants it). Asked by ingest before a device rule is handed out.
   */
  async rulesMayAct(deviceId: number, orgIds: readonly number[], now = clockNow()): Promise<Set<number>> {
    const out = new Set<number>();
    for (const orgId of new Set(orgIds)) {
      const a = (await this.devices.orgAccess(orgId, [deviceId], now)).get(deviceId);
      if (a && a.kind !== 'example' && a.rights.RemoteInstr) out.add(orgId);
    }
    return out;
  }

  /**
   * Takes out every rule on another organisation's device whose fence's organisation no longer holds
   * RemoteInstr on it (optionally only among these devices): a share revoked, narrowed, expired or ended with
   * its sharer's account. Device rules leave a removal for the device. Run after each change to shares and
   * members, and by a job each minute for windows that end on their own. Returns how many rules went.
   */
  async withdrawUngranted(opts: { deviceIds?: readonly number[] } = {}, now = clockNow()): Promise<number> {
    const rules = await this.repo.foreignRules(opts.deviceIds ? { deviceIds: opts.deviceIds } : {});
    const byOrg = new Map<number, typeof rules>();
    for (const r of rules) byOrg.set(r.fence_org, [...(byOrg.get(r.fence_org) ?? []), r]);
    const gone: typeof rules = [];
    for (const [orgId, list] of byOrg) {
      const access = await this.devices.orgAccess(orgId, [...new Set(list.map((r) => r.device_id))], now);
      for (const r of list) {
        const a = access.get(r.device_id);
        if (!a || a.kind === 'example' || !a.rights.RemoteInstr) gone.push(r);
      }
    }
    const n = await this.repo.withdrawRules(gone, now);
    if (n > 0) this.changed();
    return n;
  }

  /** The rules whose device the caller can read now. */
  private async visibleRules(caller: Caller, rules: RuleRow[]): Promise<RuleRow[]> {
    const seen = new Map<string, boolean>();
    const out: RuleRow[] = [];
    for (const r of rules) {
      let ok = seen.get(r.imei);
      if (ok === undefined) {
        ok = await this.devices.resolve(caller, r.imei).then(
          () => true,
          () => false,
        );
        seen.set(r.imei, ok);
      }
      if (ok) out.push(r);
    }
    return out;
  }

  private instrs(row: FenceRow, caller: Caller): FenceInstr[] {
    const list = InstructionParamsSchema.array().parse(JSON.parse(row.instrs));
    return list.map((p) => ({
      Type: p.Type,
      Parameters: p,
      StdTimeZone: row.time_zone,
      Desc: message(caller.lang, `instr.type.${p.Type}`),
      Detail: describeParams(p, caller.lang, row.time_zone, caller.zone),
      HighFrequency: highFrequency(p),
    }));
  }

  private rule(row: FenceRow, r: RuleRow, caller: Caller, instrs: FenceInstr[]): FenceRule {
    return {
      Id: r.id,
      IdStr: String(r.id),
      FenceIdStr: String(row.id),
      IMEI: r.imei,
      Caption: captionFor(r.imei, r.caption, r.is_samples === 1, caller.lang),
      InOrOut: row.in_or_out as InOrOut,
      AllowSendInstr: row.allow_send_instr === 1 ? 1 : 0,
      Instrs: instrs,
      RuleType: row.rule_type as 1 | 2,
      Synchronized: row.rule_type === FENCE_RULE_TYPE.Remote || r.synchronized === 1 ? 1 : 0,
      Inside: r.inside === null ? null : r.inside === 1,
      StateTime: formatTime(r.fix_time, caller.zone),
    };
  }

  private record(row: FenceRow, rules: RuleRow[], caller: Caller): Fence {
    // Stored by fenceValues from checked shapes: read as they are (the schema's check of a 5,000-vertex
    // ring took ~100 ms; an import's answer holds up to 200 of them), as the evaluator reads them.
    const shape = JSON.parse(row.shape) as FenceShape;
    const params = InstructionParamsSchema.array().parse(JSON.parse(row.instrs));
    const gnss = params.find((p) => p.Type === 'ACQUISITION_FREQUENCY');
    const post = params.find((p) => p.Type === 'POSTBACK_FREQUENCY');
    const device = row.rule_type === FENCE_RULE_TYPE.Device;
    return {
      Id: row.id,
      IdStr: String(row.id),
      Label: row.label,
      Type: row.type as 0 | 1 | 2,
      Shape: shape,
      Area: Math.round(row.area * 100) / 100,
      Enabled: row.enabled === 1 ? 1 : 0,
      InOrOut: row.in_or_out as InOrOut,
      RuleType: row.rule_type as 0 | 1 | 2,
      AllowSendInstr: row.allow_send_instr === 1 ? 1 : 0,
      Collection: GnssCollectionSchema.parse(gnss?.Type === 'ACQUISITION_FREQUENCY' ? gnss.GNSS : undefined),
      Postback: PostbackSchema.parse(post?.Type === 'POSTBACK_FREQUENCY' ? post.Postback : undefined),
      TimeZone: row.time_zone,
      Devices: rules.map((r) => ({ IMEI: r.imei, Caption: captionFor(r.imei, r.caption, r.is_samples === 1, caller.lang) })),
      Example: row.is_samples === 1,
      Editable: row.org_id === caller.session.orgId,
      Removable: row.org_id === caller.session.orgId || (row.is_samples !== 1 && rules.some((r) => r.device_org === caller.session.orgId)),
      Owner: row.org_id === caller.session.orgId || row.is_samples === 1 ? null : { OrgName: row.org_name, NickName: row.creator_name },
      CreateTime: formatTime(row.created_at, caller.zone),
      UpdateTime: formatTime(row.updated_at, caller.zone),
      detail: {
        RemoteRule: device ? 0 : rules.length,
        DeviceRule: device ? rules.length : 0,
        Synchronized: !device || rules.every((r) => r.synchronized === 1) ? 1 : 0,
      },
    };
  }

  private async records(rows: FenceRow[], caller: Caller): Promise<Fence[]> {
    const rules = await this.visibleRules(caller, await this.repo.rules(rows.map((r) => r.id)));
    const out: Fence[] = [];
    for (const row of rows) {
      out.push(this.record(row, rules.filter((r) => r.fence_id === row.id), caller));
      // large shapes (an import's 200 rings of 5,000 vertices): other calls get a turn between them
      if (out.length % 5 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }

  async list(caller: Caller, body: ListBody): Promise<{ List: Fence[]; Total: number }> {
    const orgs = await this.visibleOrgs(caller);
    const { rows, total } = await this.repo.list(orgs, body.keyword ?? '', (body.currentPage - 1) * body.pageSize, body.pageSize, caller.session.orgId);
    return { List: await this.records(rows, caller), Total: total };
  }

  /**
   * The fences the caller sees as one GeoJSON or KML file (issue 29 "Geodata out"), streamed: those named
   * (each checked as GetRuleListByType checks it: 1002 for one the caller can't see), else every fence
   * GetFenceList lists (with its keyword), read EXPORT_PAGE at a time; each with the devices the caller sees.
   */
  async exportFile(caller: Caller, body: ExportBody): Promise<FileAnswer> {
    const named = body.fenceIds ? await Promise.all([...new Set(body.fenceIds)].map((id) => this.fenceFor(caller, id, false))) : null;
    const orgs = named ? [] : await this.visibleOrgs(caller);
    const feature = (row: FenceRow, rules: RuleRow[]): FenceFeature => ({
      id: String(row.id),
      name: row.label,
      shape: JSON.parse(row.shape) as FenceShape,
      area: Math.round(row.area * 100) / 100,
      enabled: row.enabled === 1,
      inOrOut: row.in_or_out,
      ruleType: row.rule_type,
      devices: rules.filter((r) => r.fence_id === row.id).map((r) => ({ imei: r.imei, caption: captionFor(r.imei, r.caption, r.is_samples === 1, caller.lang) })),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
    const batches = async function* (this: FenceService) {
      for (let offset = 0; ; offset += EXPORT_PAGE) {
        const rows = named ? named.slice(offset, offset + EXPORT_PAGE) : (await this.repo.list(orgs, body.keyword ?? '', offset, EXPORT_PAGE, caller.session.orgId)).rows;
        if (rows.length === 0) return;
        const rules = await this.visibleRules(caller, await this.repo.rules(rows.map((r) => r.id)));
        yield rows.map((r) => feature(r, rules));
        if (rows.length < EXPORT_PAGE) return;
      }
    }.call(this);
    const title = message(caller.lang, 'fence.export.fileName');
    const stream = new PassThrough();
    writeFences(body.fileType, title, batches, stream).catch((err: unknown) => {
      if (!stream.destroyed) stream.destroy(err as Error);
    });
    return { name: `${title}.${body.fileType}`, stream };
  }

  async deviceFences(caller: Caller, imei: string): Promise<{ List: { Fence: Fence; Rule: FenceRule }[] }> {
    const d = await this.devices.resolve(caller, imei);
    // the device's owner sees every fence with a rule on it, whoever's; a recipient their own and the owner's
    const orgs = d.access.kind === 'own' ? 'all' : [...new Set([caller.session.orgId, Number(d.org_id)])];
    const rows = await this.repo.fencesOfDevice(Number(d.id), orgs);
    const fences = await this.records(rows, caller);
    const rules = await this.repo.rules(rows.map((r) => r.id));
    return {
      List: rows.flatMap((row, i) => {
        const r = rules.find((x) => x.fence_id === row.id && x.device_id === Number(d.id));
        return r ? [{ Fence: fences[i]!, Rule: this.rule(row, r, caller, this.instrs(row, caller)) }] : [];
      }),
    };
  }

  async rulesByType(caller: Caller, fenceId: string, type: 1 | 2 | undefined): Promise<{ List: FenceRule[] }> {
    const row = await this.fenceFor(caller, fenceId, false);
    if (type !== undefined && row.rule_type !== type) return { List: [] };
    const rules = await this.visibleRules(caller, await this.repo.rules([row.id]));
    const instrs = this.instrs(row, caller);
    return { List: rules.map((r) => this.rule(row, r, caller, instrs)) };
  }

  /** The devices of a form: each visible (1002 otherwise) and instructable by the caller (1003). */
  private async formDevices(caller: Caller, imeis: readonly string[]): Promise<ResolvedDevice[]> {
    const devices = await this.devices.resolveMany(caller, imeis);
    for (const d of devices) requireRight(d.access, 'RemoteInstr');
    return devices;
  }

  async create(caller: Caller, body: CreateBody, now = clockNow()): Promise<Fence> {
    const devices = await this.formDevices(caller, body.imeis);
    checkShape(body.shape);
    const [id] = await this.repo.save(caller.session.orgId, caller.session.userId, [{ values: fenceValues(body.label, body.shape, body, caller.zone), deviceIds: devices.map((d) => Number(d.id)) }], now);
    this.changed();
    return (await this.records([(await this.repo.get(id!))!], caller))[0]!;
  }

  async update(caller: Caller, body: UpdateBody, now = clockNow()): Promise<Fence> {
    const devices = await this.formDevices(caller, body.imeis);
    checkShape(body.shape);
    const row = await this.fenceFor(caller, body.fenceId, true);
    // The caller's say over the fence's present devices: those they may instruct; others' rules stay.
    const present = await this.repo.rules([row.id]);
    const editable: number[] = [];
    for (const r of present) {
      const ok = await this.devices.resolve(caller, r.imei).then((d) => d.access.kind !== 'example' && d.access.rights.RemoteInstr, () => false);
      if (ok) editable.push(r.device_id);
    }
    await this.repo.save(caller.session.orgId, caller.session.userId, [{ fenceId: row.id, values: fenceValues(body.label, body.shape, body, caller.zone), deviceIds: devices.map((d) => Number(d.id)), editable }], now);
    this.changed();
    return (await this.records([(await this.repo.get(row.id))!], caller))[0]!;
  }

  async enable(caller: Caller, fenceId: string, enabled: 0 | 1, now = clockNow()): Promise<Fence> {
    const row = await this.fenceFor(caller, fenceId, true);
    await this.repo.setEnabled(row.id, enabled, now);
    this.changed();
    return (await this.records([(await this.repo.get(row.id))!], caller))[0]!;
  }

  /**
   * Deletes the caller's organisation's fence; another organisation's fence with rules on the caller's
   * devices loses those rules (device rules with a removal for the device), the rest of it is its owner's.
   */
  async delete(caller: Caller, fenceId: string, now = clockNow()): Promise<null> {
    const row = await this.fenceFor(caller, fenceId, false);
    if (row.org_id !== caller.session.orgId) {
      if (row.is_samples === 1) throw new AppError(Code.Forbidden, 'fence.readOnly');
      await this.repo.withdrawRules(await this.repo.rulesOnOrg(row.id, caller.session.orgId), now);
      this.changed();
      return null;
    }
    await this.repo.delete(row.id, now);
    this.changed();
    return null;
  }

  /** An import's devices, checked before its file is read: each visible (1002) and instructable (1003). */
  async checkImportDevices(caller: Caller, imeis: readonly string[]): Promise<void> {
    await this.formDevices(caller, imeis);
  }

  /**
   * Stores the fences of an import (one per polygon, named `<prefix> n`, with the settings), all or none, and
   * answers what it made without each shape back (ImportedFence: re-reading and serialising 200 rings of 5,000
   * vertices held the other calls up for seconds, issue 26 H4). The shapes were read and checked, and their
   * stored geometry made, in a worker (shp-import.ts); they are written a few at a time and switched on at
   * once (FenceRepository.importFences), so no transaction holds the database for the whole file.
   */
  async importShapes(caller: Caller, prefix: string, shapes: ImportedShapes, settings: FenceSettings, now = clockNow()): Promise<{ List: ImportedFence[] }> {
    const devices = await this.formDevices(caller, settings.imeis);
    const label = (i: number) => `${prefix} ${i + 1}`.slice(0, 50);
    // device rules start unsynchronized (the device acknowledges them), remote ones synchronized, as in save
    const sync = settings.ruleType === FENCE_RULE_TYPE.Device && settings.enabled === 1 ? 0 : 1;
    const ids = await this.repo.importFences(
      caller.session.orgId,
      caller.session.userId,
      { count: shapes.length, values: (i) => fenceValues(label(i), shapes.at(i), settings, caller.zone) },
      devices.map((d) => Number(d.id)),
      sync,
      now,
    );
    this.changed();
    return {
      List: ids.map((id, i) => {
        const m = shapes.meta(i);
        return { Id: id, IdStr: String(id), Label: label(i), Area: Math.round(m.area * 100) / 100, Vertices: m.vertices };
      }),
    };
  }
}
