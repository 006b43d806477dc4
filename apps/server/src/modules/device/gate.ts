import {
  batteryLevelOf,
  type calls,
  Code,
  DeviceType,
  type DeviceDetail,
  type DevicePermission,
  EXPERIENCE_FOLDER_ID,
  fixGapMinutes,
  formatTime,
  median,
  type ObservedWork,
  OBSERVED_FIXES_MAX,
  postbackWaitMinutes,
  VOLTAGE_TREND_POINTS,
  type FolderOnly,
  message,
  ROOT_FOLDER_ID,
  SHARED_FOLDER_PREFIX,
  type TreeData,
  type TreeDevice,
  type TreeFolder,
  type TreeState,
  type WorkStatus,
  readWorkStatus,
  reportGapOf,
} from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { AppError } from '../../http/errors.js';
import { accessOfRow, type DeviceAccess, deviceNotFound, OWN_RIGHTS, permissionOf, requireRight, shareDataRange, type TimeRange } from './access.js';

/** Both ranges' span: what any of several shares lets read. */
const widest = (a: TimeRange, b: TimeRange | null | undefined): TimeRange => (b ? { from: Math.min(a.from, b.from), to: Math.max(a.to, b.to) } : a);
import type { DeviceGateRepository } from './gate-repository.js';
import { captionFor } from './samples.js';
import { buildTree, folderNotFound, parseFolderRef, refuseReadOnlyFolder, ReportGaps, type TreeEntry, treeState } from './tree.js';
import { describeWorkStatus, type WorkStatusDoc, workStatusOf } from './work-status.js';
import { now as clockNow } from '../../lib/clock.js';

/** Fixes closer than this are one second-level fix (SECOND_LEVEL_FIX_COUNT fixes 1 s apart, §5). */
const SECOND_LEVEL_GAP_MS = 10_000;

export type ResolvedDevice = NonNullable<Awaited<ReturnType<DeviceGateRepository['withAccess']>>> & { access: DeviceAccess };
type BriefRow = Awaited<ReturnType<DeviceGateRepository['withBriefAccessMany']>> extends Map<string, infer R> ? R : never;
/** A device as resolveManyBrief answers it: the access and what names the device. */
export type BriefDevice = BriefRow & { access: DeviceAccess };

/**
 * The console's device calls, each through the caller's access (§2.5 device tree, §3, §6): the tree,
 * folder edits with their rules, device edits with their rights, and details. Registering devices (the
 * operator's CLI, imports, the sample fleet) is DeviceRegistry's.
 */
export class DeviceGate {
  private readonly reportGaps = new ReportGaps();

  constructor(private readonly q: DeviceGateRepository) {}

  async resolve(caller: Caller, imei: string, known?: Awaited<ReturnType<DeviceGateRepository['withAccess']>>): Promise<ResolvedDevice> {
    const now = clockNow();
    const row = known ?? (await this.q.withAccess(imei.trim(), caller.session.userId, now));
    if (!row) throw deviceNotFound();
    return { ...row, access: await this.accessOfRow(caller, row, now) };
  }

  /** The caller's access to a device by its access query's row (read at `now`), by the read rule (access.ts), or "no such device". */
  private async accessOfRow(caller: Caller, row: BriefRow, now: number): Promise<DeviceAccess> {
    const experience = row.is_samples === 1 ? await this.q.experienceFlag(caller.session.userId) : false;
    const access = accessOfRow({ ...row, effective_time: row.share_effective, failure_time: row.share_failure, data_period: row.share_data_period, data_from: row.share_data_from }, caller.session, experience, now);
    if (!access) throw deviceNotFound();
    return access;
  }

  /**
   * Several devices at once, in the order given and each once, with the same refusals as resolve (any
   * device the caller can't see refuses the call): one access query for all (last positions name up to
   * a folder's devices; one query each was most of that call's time, bench/load).
   */
  async resolveMany(caller: Caller, imeis: readonly string[]): Promise<ResolvedDevice[]> {
    return this.resolveRows(caller, imeis, (wanted, userId, now) => this.q.withAccessMany(wanted, userId, now));
  }

  /**
   * resolveMany with only the access and what names a device (id, IMEI, organisation, caption,
   * second-level fixes, the caller's remark): the same refusals from the same rows' access columns, a
   * narrower query (bench/load's last positions, 50 devices).
   */
  async resolveManyBrief(caller: Caller, imeis: readonly string[]): Promise<BriefDevice[]> {
    return this.resolveRows(caller, imeis, (wanted, userId, now) => this.q.withBriefAccessMany(wanted, userId, now));
  }

  /** One device as resolveManyBrief answers it (the same refusals as resolve): what the fix calls need of it, a narrower row. */
  async resolveBrief(caller: Caller, imei: string): Promise<BriefDevice> {
    return (await this.resolveManyBrief(caller, [imei]))[0]!;
  }

  /** Each wanted device once, in order, with its access from its access-query row; any missing or unseen one refuses. */
  private async resolveRows<R extends BriefRow>(
    caller: Caller,
    imeis: readonly string[],
    query: (wanted: string[], userId: number, now: number) => Promise<Map<string, R>>,
  ): Promise<(R & { access: DeviceAccess })[]> {
    const wanted = [...new Set(imeis.map((i) => i.trim()))];
    const now = clockNow();
    const rows = await query(wanted, caller.session.userId, now);
    const out: (R & { access: DeviceAccess })[] = [];
    for (const imei of wanted) {
      const row = rows.get(imei);
      if (!row) throw deviceNotFound();
      out.push({ ...row, access: await this.accessOfRow(caller, row, now) });
    }
    return out;
  }

  /**
   * What an organisation (not a signed-in user: a fence's, whose rules act on their own) holds on each
   * device now: every right on its own devices; on another organisation's, the rights of the shares open
   * now to its enabled users from enabled users of the device's organisation (several: any right any of
   * them grants); none (absent from the map) otherwise. A rule that acts without a request asks here at
   * the moment it acts, never what held when it was made (issue 26 H1).
   */
  async orgAccess(orgId: number, deviceIds: readonly number[], now = clockNow()): Promise<Map<number, DeviceAccess>> {
    const { devices, shares } = await this.q.orgGrants(orgId, deviceIds, now);
    const out = new Map<number, DeviceAccess>();
    for (const d of devices) if (d.orgId === orgId) out.set(d.id, { kind: 'own', rights: OWN_RIGHTS, effective: null, failure: null, data: null });
    for (const s of shares) {
      if (out.get(s.deviceId)?.kind === 'own') continue;
      const had = out.get(s.deviceId);
      out.set(s.deviceId, {
        kind: 'shared',
        rights: {
          EditDevice: s.edit || (had?.rights.EditDevice ?? false),
          EditFix: false,
          RemoteInstr: s.remote || (had?.rights.RemoteInstr ?? false),
          ShareDevice: false,
          DownloadData: s.download || (had?.rights.DownloadData ?? false),
        },
        effective: Math.min(s.effective, had?.effective ?? Infinity),
        failure: Math.max(s.failure, had?.failure ?? -Infinity),
        data: widest(shareDataRange(s.dataPeriod, s.dataFrom, s.effective, s.failure), had?.data),
        sharedBy: had?.sharedBy ?? { userId: s.ownerId, name: s.ownerName },
      });
    }
    return out;
  }

  /**
   * Every device the caller can read now (the tree's: their organisation's, shares inside their window, the
   * examples while the experience switch is on), with its caption in the caller's language: the event list
   * and subscriptions read across all of them.
   */
  async readable(caller: Caller): Promise<{ id: number; imei: string; caption: string; access: DeviceAccess }[]> {
    const { data, index } = await buildTree(this.q, caller, '');
    const out: { id: number; imei: string; caption: string; access: DeviceAccess }[] = [];
    const walk = (f: TreeFolder) => {
      for (const d of f.Devices) {
        const e = index.get(d.IMEI);
        if (e) out.push({ id: e.id, imei: d.IMEI, caption: d.Caption, access: e.access });
      }
      f.Folders.forEach(walk);
    };
    data.Folders.forEach(walk);
    return out;
  }

  // ---- the tree ---------------------------------------------------------------------------------

  /** The tree with each device's id and access (the read API's studies are its folders: modules/export/direct-read.ts). */
  readableTree(caller: Caller): Promise<{ data: TreeData; index: Map<string, TreeEntry> }> {
    return buildTree(this.q, caller, caller.orgName);
  }

  async tree(caller: Caller): Promise<TreeData> {
    return (await buildTree(this.q, caller, caller.orgName)).data;
  }

  /** The tree's marks: each device's last fix time and expected report gap. */
  treeState(caller: Caller): Promise<TreeState> {
    return treeState(this.q, this.reportGaps, caller);
  }

  async folderTree(caller: Caller): Promise<FolderOnly[]> {
    const { data: tree } = await buildTree(this.q, caller, '');
    const strip = (f: TreeFolder): FolderOnly => ({ IdStr: f.IdStr, ParentIdStr: f.ParentIdStr, Name: f.Name, DeviceCount: f.DeviceCount, Folders: f.Folders.map(strip) });
    return [strip(tree.Folders[0]!)];
  }

  // ---- folders ----------------------------------------------------------------------------------

  /**
   * A folder of the caller's organisation (or the root: null); anything else is "no such folder", the
   * experience and shared folders are read-only. The Movebank import checks its target folder here.
   */
  async ownFolder(caller: Caller, idStr: string): Promise<number | null> {
    const ref = parseFolderRef(idStr);
    refuseReadOnlyFolder(ref);
    if (ref.kind === 'root') return null;
    if (ref.kind !== 'folder' || !(await this.q.folder(ref.id, caller.session.orgId))) throw folderNotFound();
    return ref.id;
  }

  private async editableFolder(caller: Caller, idStr: string): Promise<number> {
    const id = await this.ownFolder(caller, idStr);
    if (id === null) throw new AppError(Code.Forbidden, 'error.forbidden');
    return id;
  }

  async createFolder(caller: Caller, name: string, parentIdStr: string): Promise<string> {
    const parent = await this.ownFolder(caller, parentIdStr);
    return String(await this.q.createFolder(caller.session.orgId, parent, name, clockNow()));
  }

  async renameFolder(caller: Caller, idStr: string, name: string): Promise<void> {
    await this.q.renameFolder(await this.editableFolder(caller, idStr), name);
  }

  /** The folder and every folder below it, leaves first. */
  private async subtree(orgId: number, id: number): Promise<number[]> {
    const folders = await this.q.folders(orgId);
    const children = new Map<number, number[]>();
    for (const f of folders) {
      if (f.parent_id === null) continue;
      const list = children.get(Number(f.parent_id)) ?? [];
      list.push(Number(f.id));
      children.set(Number(f.parent_id), list);
    }
    const out: number[] = [];
    const walk = (n: number) => {
      for (const c of children.get(n) ?? []) walk(c);
      out.push(n);
    };
    walk(id);
    return out;
  }

  async deleteFolder(caller: Caller, idStr: string): Promise<void> {
    const id = await this.editableFolder(caller, idStr);
    const ids = await this.subtree(caller.session.orgId, id);
    if ((await this.q.countDevicesIn(ids)) > 0) throw new AppError(Code.Failed, 'folder.notEmpty');
    await this.q.deleteFolders(ids);
  }

  async moveFolder(caller: Caller, idStr: string, parentIdStr: string): Promise<void> {
    const id = await this.editableFolder(caller, idStr);
    const parent = await this.ownFolder(caller, parentIdStr);
    if (parent !== null && (await this.subtree(caller.session.orgId, id)).includes(parent)) throw new AppError(Code.Forbidden, 'folder.cycle');
    await this.q.setFolderParent(id, parent);
  }

  // ---- devices ----------------------------------------------------------------------------------

  async moveDevice(caller: Caller, imei: string, folderIdStr: string): Promise<void> {
    const d = await this.resolve(caller, imei);
    requireRight(d.access, 'EditDevice');
    // Folders belong to the organisation: a shared device stays where its owner keeps it.
    if (d.access.kind !== 'own') throw new AppError(Code.Forbidden, 'device.noEditRight');
    const folder = await this.ownFolder(caller, folderIdStr);
    await this.q.moveDevice(Number(d.id), folder);
  }

  async setRemark(caller: Caller, imei: string, remark: string): Promise<void> {
    const d = await this.resolve(caller, imei);
    await this.q.setRemark(caller.session.userId, Number(d.id), remark.trim());
  }

  async setSecondLevelFix(caller: Caller, imei: string, enabled: boolean): Promise<void> {
    const d = await this.resolve(caller, imei);
    requireRight(d.access, 'EditDevice');
    if (d.type === DeviceType.Phone) throw new AppError(Code.Forbidden, 'device.secondLevelPhone');
    await this.q.updateDevice(Number(d.id), { second_level_fix: enabled ? 1 : 0 });
  }

  async updateProperty(caller: Caller, imei: string, p: z.output<typeof calls.UpdateProperty.body>): Promise<void> {
    const d = await this.resolve(caller, imei);
    requireRight(d.access, 'EditDevice');
    const values: Parameters<DeviceGateRepository['updateDevice']>[1] = {};
    if (p.caption !== undefined) values.caption = p.caption;
    if (p.description !== undefined) values.description = p.description;
    if (p.speciesType !== undefined) values.species_type = p.speciesType;
    if (p.status !== undefined) values.status = p.status;
    if (Object.keys(values).length > 0) await this.q.updateDevice(Number(d.id), values);
  }

  /** Whether the caller can see a device whose animal info shows this uploaded image. */
  async canSeeImage(caller: Caller, url: string): Promise<boolean> {
    for (const imei of await this.q.devicesShowingImage(url)) {
      try {
        await this.resolve(caller, imei);
        return true;
      } catch {
        // not this one
      }
    }
    return false;
  }

  async setExperience(caller: Caller, enabled: boolean): Promise<void> {
    await this.q.setExperienceFlag(caller.session.userId, enabled);
  }

  // ---- details ----------------------------------------------------------------------------------

  private async details(caller: Caller, items: { id: number; access: DeviceAccess; remark: string; folderIdStr: string }[]): Promise<DeviceDetail[]> {
    const ids = items.map((i) => i.id);
    const [rows, firsts, docs, fences] = items.length === 1 ? await this.detailOf(ids[0]!) : await Promise.all([this.q.detailRows(ids), this.q.firstFixTime(ids), this.q.workStatusDocs(ids), this.q.fenceCounts(ids)]);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const now = clockNow();
    return items.flatMap((it) => {
      const r = byId.get(it.id);
      if (!r) return [];
      const doc = readWorkStatus(docs.get(it.id)?.settings);
      const first = firsts.get(it.id);
      const lastWork = r.last_work_time;
      const shared = it.access.kind === 'shared';
      return [
        {
          IMEI: r.imei,
          Caption: captionFor(r.imei, r.caption, r.example === 1, caller.lang),
          RemarkName: it.remark,
          CustomerName: r.org_name,
          FolderIdStr: it.folderIdStr,
          FolderName: it.folderIdStr === EXPERIENCE_FOLDER_ID ? message(caller.lang, 'tree.experience') : shared ? '' : (r.folder_name ?? ''),
          ModelName: r.model,
          Type: r.type,
          SpeciesType: r.species_type,
          BatteryType: r.battery_type,
          Image: r.image,
          Status: r.status,
          Voltage: r.last_voltage,
          BatteryLevel: r.last_voltage === null ? null : batteryLevelOf(r.last_voltage, r.battery_type),
          LastWorkTime: formatTime(lastWork, caller.zone),
          LastWorkAt: lastWork === null ? null : Number(lastWork),
          ReportGapMinutes: reportGapOf(doc),
          WorkDays: first !== undefined ? Math.max(1, Math.ceil(((lastWork ?? now) - first) / 86_400_000)) : 0,
          EffectiveTime: formatTime(shared ? it.access.effective : r.effective_time, caller.zone),
          FailureTime: formatTime(shared ? it.access.failure : r.failure_time, caller.zone),
          Description: r.description,
          Attent: false,
          FenceCount: fences.get(it.id) ?? 0,
          Sensor: r.sensors,
          InstrSupport: r.instr_support,
          SecondLevelFix: r.second_level_fix === 1 ? 1 : 0,
          Example: r.example === 1,
          Permission: permissionOf(it.access, caller.zone),
          ...describeWorkStatus(doc, caller.lang, caller.zone),
        },
      ];
    });
  }

  /** What details() reads, for one device in one statement (ConsoleQueries.detailOne). */
  private async detailOf(id: number) {
    const row = await this.q.detailOne(id);
    const firsts = new Map<number, number>();
    const docs = new Map<number, { settings: string; at: number }>();
    const fences = new Map<number, number>();
    if (row) {
      if (row.first_fix !== null) firsts.set(id, Number(row.first_fix));
      if (row.work_settings !== null) docs.set(id, { settings: row.work_settings, at: Number(row.work_at) });
      if (Number(row.fence_count) > 0) fences.set(id, Number(row.fence_count));
    }
    return [row ? [row] : [], firsts, docs, fences] as const;
  }

  async detail(caller: Caller, imei: string): Promise<DeviceDetail> {
    const d = await this.resolve(caller, imei);
    const folderIdStr =
      d.access.kind === 'example' ? EXPERIENCE_FOLDER_ID : d.access.kind === 'shared' ? `${SHARED_FOLDER_PREFIX}${d.access.sharedBy?.userId}` : d.folder_id === null ? ROOT_FOLDER_ID : String(d.folder_id);
    const [detail] = await this.details(caller, [{ id: Number(d.id), access: d.access, remark: d.remark_name ?? '', folderIdStr }]);
    if (!detail) throw deviceNotFound();
    return detail;
  }

  /** Devices of a folder ref (optionally with everything below), with their access, in tree order. */
  async devicesOf(caller: Caller, folderIdStr: string, recursive: boolean): Promise<{ node: TreeDevice; id: number; access: DeviceAccess; folderIdStr: string; permission: DevicePermission }[]> {
    const ref = parseFolderRef(folderIdStr);
    const { data: tree, index } = await buildTree(this.q, caller, '');
    const findFolder = (list: TreeFolder[]): TreeFolder | undefined => {
      for (const f of list) {
        if (f.IdStr === folderIdStr) return f;
        const inner = findFolder(f.Folders);
        if (inner) return inner;
      }
      return undefined;
    };
    const folder = ref.kind === 'root' ? tree.Folders[0] : findFolder(tree.Folders);
    if (!folder) throw folderNotFound();
    const out: { node: TreeDevice; id: number; access: DeviceAccess; folderIdStr: string; permission: DevicePermission }[] = [];
    const walk = (f: TreeFolder) => {
      for (const node of f.Devices) out.push({ node, ...index.get(node.IMEI)!, permission: tree.Permissions[node.Permission]! });
      if (recursive) f.Folders.forEach(walk);
    };
    walk(folder);
    return out;
  }

  async page(
    caller: Caller,
    o: z.output<typeof calls.GetDetailByFolder.body>,
  ): Promise<{ List: DeviceDetail[]; Total: number }> {
    const devices = await this.devicesOf(caller, o.folderId, o.recursive);
    const key = o.sortField ?? 'Caption';
    const dir = o.sortOrder === 'descend' ? -1 : 1;
    // Voltage, last work time and model are details: read them for the folder's devices only when the
    // table is sorted by one of them.
    const extra = key === 'Voltage' || key === 'LastWorkTime' || key === 'ModelName' ? new Map((await this.q.detailRows(devices.map((d) => d.id))).map((r) => [Number(r.id), r])) : undefined;
    const value = (d: (typeof devices)[number]): string | number => {
      switch (key) {
        case 'IMEI':
          return d.node.IMEI;
        case 'Status':
          return d.node.Status;
        case 'Voltage':
          return extra?.get(d.id)?.last_voltage ?? -Infinity;
        case 'LastWorkTime':
          return extra?.get(d.id)?.last_work_time ?? -Infinity;
        case 'ModelName':
          return extra?.get(d.id)?.model ?? '';
        default:
          return (d.node.RemarkName || d.node.Caption).toLowerCase();
      }
    };
    devices.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      return (x < y ? -1 : x > y ? 1 : a.node.IMEI < b.node.IMEI ? -1 : 1) * dir;
    });
    const start = (o.currentPage - 1) * o.pageSize;
    const slice = devices.slice(start, start + o.pageSize);
    const list = await this.details(caller, slice.map((d) => ({ id: d.id, access: d.access, remark: d.node.RemarkName, folderIdStr: d.folderIdStr })));
    return { List: list, Total: devices.length };
  }

  /** The known work status of each device, by id (a device that never reported one is absent). */
  async workSettingsOf(deviceIds: number[]): Promise<Map<number, WorkStatusDoc>> {
    const out = new Map<number, WorkStatusDoc>();
    for (const [id, stored] of await this.q.workStatusDocs(deviceIds)) {
      const doc = readWorkStatus(stored.settings);
      if (doc) out.set(id, doc);
    }
    return out;
  }

  /** How each device collects and sends data (§3), every one resolved through the caller's access first. */
  async workStatus(caller: Caller, imeis: readonly string[]): Promise<WorkStatus[]> {
    const resolved = [];
    for (const imei of imeis) resolved.push(await this.resolve(caller, imei));
    const docs = await this.q.workStatusDocs(resolved.map((d) => Number(d.id)));
    return resolved.map((d) => {
      const stored = docs.get(Number(d.id));
      return workStatusOf(d.imei, d.last_work_time, d.battery_type, readWorkStatus(stored?.settings), stored?.at ?? null, caller.zone);
    });
  }

  /**
   * The observed schedule beside the configured one (issue 12): over the `days` days up to the device's
   * last fix (a silent device still shows how it last worked), the median gap between consecutive fixes
   * and the median delay from fix to arrival (the device's transmission time when it sent one, else the
   * receive time), from at most OBSERVED_FIXES_MAX of the newest fixes read by the (device_id, pick_time)
   * key; and the voltage over the same window, thinned to VOLTAGE_TREND_POINTS.
   */
  async observedWork(caller: Caller, imei: string, days: number): Promise<ObservedWork> {
    const d = await this.resolve(caller, imei);
    const id = Number(d.id);
    const stored = (await this.q.workStatusDocs([id])).get(id);
    const doc = readWorkStatus(stored?.settings);
    const reported = stored?.at ?? null;
    const to = d.last_work_time === null ? null : Number(d.last_work_time);
    const from = to === null ? null : to - days * 86_400_000;
    const rows = to === null || from === null ? [] : (await this.q.recentFixes(id, from, to, OBSERVED_FIXES_MAX)).reverse();
    const gaps: number[] = [];
    for (let i = 1; i < rows.length; i++) {
      const gap = rows[i]!.pick_time - rows[i - 1]!.pick_time;
      // a second-level fix's ten fixes a second apart count as one
      if (gap >= SECOND_LEVEL_GAP_MS) gaps.push(gap);
    }
    const delays = rows.map((r) => Math.max(0, (r.tx_time ?? r.received_at) - r.pick_time));
    const withVoltage = rows.filter((r) => r.voltage !== null);
    const step = Math.max(1, Math.ceil(withVoltage.length / VOLTAGE_TREND_POINTS));
    const voltages: [number, number][] = [];
    for (let i = 0; i < withVoltage.length; i += step) voltages.push([withVoltage[i]!.pick_time, withVoltage[i]!.voltage!]);
    const last = withVoltage[withVoltage.length - 1];
    if (last && voltages[voltages.length - 1]?.[0] !== last.pick_time) voltages.push([last.pick_time, last.voltage!]);
    const minutes = (ms: number | null) => (ms === null ? null : Math.round((ms / 60_000) * 10) / 10);
    return {
      IMEI: d.imei,
      Days: days,
      From: formatTime(from, caller.zone),
      To: formatTime(to, caller.zone),
      FixCount: rows.length,
      MedianFixIntervalMinutes: minutes(median(gaps)),
      MedianPostbackDelayMinutes: minutes(median(delays)),
      ConfiguredFixIntervalMinutes: doc === null ? null : fixGapMinutes(doc),
      ConfiguredPostbackWaitMinutes: doc === null ? null : postbackWaitMinutes(doc),
      ConfigReportedTime: formatTime(reported, caller.zone),
      Voltages: voltages,
    };
  }

  async count(caller: Caller, folderId: string, recursive: boolean): Promise<number> {
    return (await this.devicesOf(caller, folderId, recursive)).length;
  }

  async handhelds(caller: Caller) {
    const { data: tree } = await buildTree(this.q, caller, '');
    const out: { IMEI: string; Caption: string; RemarkName: string }[] = [];
    const walk = (f: TreeFolder) => {
      for (const d of f.Devices) if (d.Type === DeviceType.Phone) out.push({ IMEI: d.IMEI, Caption: d.Caption, RemarkName: d.RemarkName });
      f.Folders.forEach(walk);
    };
    tree.Folders.forEach(walk);
    return out;
  }
}
