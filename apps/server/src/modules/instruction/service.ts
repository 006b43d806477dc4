import {
  type calls,
  Code,
  DeviceStatus,
  DeviceType,
  type Exceed,
  formatTime,
  hoursFromUtc,
  hoursToUtc,
  INSTRUCTABLE_STATUSES,
  INSTRUCTION_FAILURE_REASONS,
  INSTRUCTION_WITHDRAW_WINDOW_MS,
  type Instruction,
  type InstructionParams,
  type InstructionRefusal,
  InstructionParamsSchema,
  type InstructionStatus,
  INSTRUCTIONS_PER_DEVICE_PER_DAY,
  InstrSupportFlag,
  type InstrSupportName,
  type InstrType,
  type Lang,
  message,
  parseOffset,
  SensorFlag,
  type WorkSettings,
  commWindowMs,
} from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { checkedRange } from '../../http/range.js';
import { AppError } from '../../http/errors.js';
import { ALL_TIME, clampToWindow } from '../device/access.js';
import type { DeviceGate, ResolvedDevice } from '../device/gate.js';
import { captionFor, type SampleInstruction } from '../device/samples.js';
import { nextPostback } from '../device/work-status.js';
import type { InstructionRepository, InstructionRow } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

/**
 * A failed instruction's ErrorMessage: the reason the device gave (a known one) in the reader's language, then
 * the device's own text as it came (its firmware's language); without a reason the device's text alone.
 */
export function errorMessageOf(r: Pick<InstructionRow, 'error_message' | 'error_reason'>, lang: Lang): string {
  const error = r.error_message ?? '';
  if (!r.error_reason || !(INSTRUCTION_FAILURE_REASONS as readonly string[]).includes(r.error_reason)) return error;
  const reason = message(lang, `instr.failure.${r.error_reason}`);
  return message(lang, 'instr.history.failedReason', { reason: reason.charAt(0).toUpperCase() + reason.slice(1), error: error || '-' });
}

type HistoryBody = z.output<typeof calls.GetInstructionCount.body>;
type ListBody = z.output<typeof calls.GetInstructionList.body>;
type SendBody = z.output<typeof calls.SendInstruction.body>;

const DAY_MS = 86_400_000;
const MINUTE = 60_000;

/** The caller's day holding `now`: [start, end) in epoch ms, in their zone. */
export function dayOf(zone: string, now: number): { from: number; to: number } {
  const offset = (parseOffset(zone) ?? 0) * MINUTE;
  const from = Math.floor((now + offset) / DAY_MS) * DAY_MS - offset;
  return { from, to: from + DAY_MS };
}

const hoursText = (hours: readonly number[]) => hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ');

/** What an instruction tells the device, in words; its hours (written in `from`) shown in `zone`. */
export function describeParams(p: InstructionParams, lang: Lang, from: string, zone: string): string {
  const hours = (hs: readonly number[]) => hoursText(hoursFromUtc(hoursToUtc(hs, from), zone));
  const parts: string[] = [];
  if (p.Type === 'POSTBACK_FREQUENCY') {
    const b = p.Postback;
    const mode = b.Mode === 'DATA_CNT'
      ? `${message(lang, 'ws.postback.count', { count: b.PacketCount })}, ${message(lang, 'instr.postbackSize', { size: b.PacketSize })}`
      : message(lang, 'ws.postback.hours', { hours: hours(b.Hours) });
    parts.push(b.Realtime ? message(lang, 'instr.realtimeFallback', { fallback: mode }) : mode);
  } else {
    const g = p.GNSS;
    if (g?.Mode === 'INTERVAL') parts.push(message(lang, 'ws.gnss.interval', { minutes: g.IntervalMinutes }));
    else if (g?.Mode === 'HOURS') parts.push(message(lang, 'ws.gnss.hours', { hours: hours(g.Hours) }));
    else if (g?.Mode === 'ADAPTIVE_HIGH') parts.push(message(lang, 'ws.gnss.adaptiveHigh', { high: g.High, medium: g.Medium, low: g.Low }));
    else if (g?.Mode === 'ADAPTIVE_LOW') parts.push(message(lang, 'ws.gnss.adaptiveLow', { high: g.High.length, medium: g.Medium.length, low: g.Low.length }));
    const a = p.ACC;
    const hz = a && a.Mode !== 'OFF' && a.FrequencyHz !== null ? a.FrequencyHz : '–';
    if (a?.Mode === 'OFF') parts.push(message(lang, 'ws.acc.off'));
    else if (a?.Mode === 'FOLLOW_GNSS') parts.push(message(lang, 'ws.acc.follow', { hz }));
    else if (a?.Mode === 'INTERVAL') parts.push(message(lang, 'ws.acc.on', { hz, minutes: a.IntervalMinutes }));
  }
  return parts.join(lang === 'zh' ? '；' : '; ');
}

/** Why a device can't take these params now, as a reason message (with its parameters), or null. */
type Reason =
  | { key: 'instr.reason.noRight' | 'instr.reason.vhf' | 'instr.reason.status' | 'instr.reason.noAcc' | 'instr.reason.limit' | 'instr.reason.neverReported' }
  | { key: 'instr.reason.unsupported'; option: InstrSupportName }
  | { key: 'instr.reason.archived'; last: number | null };

/**
 * Why a device can't take these params now. §4's "codes 2, 3 and 4 allow remote instructions" follows what
 * is known of the device: an archived one (status Retrieved: picked up, or imported history whose last fix
 * is older than its schedule allows) and one never heard from (no record, no work status) are refused
 * whatever their code says (docs/api.md "A device's lifecycle").
 */
function refusalOf(d: ResolvedDevice, p: InstructionParams, current: WorkSettings | undefined): Reason | null {
  if (d.access.kind === 'example' || !d.access.rights.RemoteInstr) return { key: 'instr.reason.noRight' };
  if (d.type === DeviceType.VHFReceiver) return { key: 'instr.reason.vhf' };
  if (d.status === DeviceStatus.Retrieved) return { key: 'instr.reason.archived', last: d.last_work_time === null ? null : Number(d.last_work_time) };
  if (!INSTRUCTABLE_STATUSES.includes(d.status)) return { key: 'instr.reason.status' };
  if (d.last_work_time === null && current === undefined) return { key: 'instr.reason.neverReported' };
  const supports = (flag: InstrSupportName) => (Number(d.instr_support) & InstrSupportFlag[flag]) !== 0;
  const need = (flag: InstrSupportName): Reason | null => (supports(flag) ? null : { key: 'instr.reason.unsupported', option: flag });
  if (p.Type === 'POSTBACK_FREQUENCY') return p.Postback.Mode === 'HOUR' ? need('DataPostbackHours') : null;
  if (p.GNSS?.Mode === 'ADAPTIVE_HIGH') {
    const r = need('GNSSCollectionAdaptiveHighFrequency');
    if (r) return r;
  }
  if (p.GNSS?.Mode === 'ADAPTIVE_LOW') {
    const r = need('GNSSCollectionAdaptiveLowFrequency');
    if (r) return r;
  }
  if (p.ACC) {
    if ((Number(d.sensors) & (SensorFlag.Acceleration | SensorFlag.OldAcceleration)) === 0) return { key: 'instr.reason.noAcc' };
    const r = need('AccCollectionSwitch');
    if (r) return r;
    if (p.ACC.Mode !== 'OFF' && p.ACC.FrequencyHz !== null && p.ACC.FrequencyHz !== current?.AccFrequencyHz) return need('AccCollectionFrequency');
  }
  return null;
}

function reasonParams(r: Reason, lang: Lang, zone: string): Record<string, string | number> {
  if (r.key === 'instr.reason.unsupported') return { option: message(lang, `instr.option.${r.option}`) };
  if (r.key === 'instr.reason.archived') return { last: r.last === null ? '-' : formatTime(r.last, zone) };
  return { limit: INSTRUCTIONS_PER_DEVICE_PER_DAY };
}

/**
 * Remote instructions (§3 Instruction, §5, §6, §9): the history, the daily limit, sending and
 * withdrawing. Every rule is the server's: RemoteInstr in its window, not a VHF receiver, work status
 * 2/3/4, the device's InstrSupport flags, INSTRUCTIONS_PER_DEVICE_PER_DAY per type in the caller's day,
 * withdraw within INSTRUCTION_WITHDRAW_WINDOW_MS while SENT. A refusal names each device and why, and
 * stores nothing. The device's side (delivery, acknowledgement, work status) is ingest's.
 */
export class InstructionService {
  constructor(
    private readonly devices: DeviceGate,
    private readonly repo: InstructionRepository,
  ) {}

  private label(d: ResolvedDevice, lang: Lang): string {
    return `${captionFor(d.imei, d.caption, d.access.kind === 'example', lang)} (${d.imei})`;
  }

  /** The refusal of a Send or an Exceedrestrict naming each device and why; 1003 when a right is missing. */
  private refuse(caller: Caller, refused: [ResolvedDevice, Reason][]): never {
    const rows = refused.map(([d, r]) => ({
      d,
      reason: message(caller.lang, r.key, reasonParams(r, caller.lang, caller.zone)),
    }));
    const clauses = rows.map(({ d, reason }) => message(caller.lang, 'instr.deviceRefused', { device: this.label(d, caller.lang), reason }));
    const list = clauses.join(caller.lang === 'zh' ? '；' : '; ');
    const data: InstructionRefusal = {
      Refused: rows.map(({ d }, i) => ({ IMEI: d.imei, Caption: captionFor(d.imei, d.caption, d.access.kind === 'example', caller.lang), Reason: clauses[i]! })),
    };
    const code = refused.some(([, r]) => r.key === 'instr.reason.noRight') ? Code.Forbidden : Code.Failed;
    throw new AppError(code, 'instr.refused', { list }, 200, data);
  }

  private async history(caller: Caller, body: HistoryBody) {
    const devices = await this.devices.resolveMany(caller, body.imeis);
    const { from, to } = checkedRange(caller, body);
    // A share's recipient sees the instructions sent inside the share's window, as with the device's data.
    const windows = devices
      .filter((d) => d.access.kind === 'shared')
      .map((d) => ({ deviceId: Number(d.id), ...clampToWindow(ALL_TIME, d.access) }));
    return { deviceIds: devices.map((d) => Number(d.id)), from, to, windows, type: body.type, status: body.status };
  }

  async count(caller: Caller, body: HistoryBody): Promise<number> {
    return this.repo.count(await this.history(caller, body));
  }

  async page(caller: Caller, body: ListBody): Promise<{ List: Instruction[]; Total: number }> {
    const q = await this.history(caller, body);
    const [rows, total] = await Promise.all([this.repo.page(q, (body.currentPage - 1) * body.pageSize, body.pageSize), this.repo.count(q)]);
    const now = clockNow();
    return { List: rows.map((r) => this.record(r, caller, now)), Total: total };
  }

  record(r: InstructionRow, caller: Caller, now: number): Instruction {
    const params = InstructionParamsSchema.parse(JSON.parse(r.params));
    const type = r.type as InstrType;
    return {
      Id: r.id,
      IdStr: String(r.id),
      IMEI: r.imei,
      Caption: captionFor(r.imei, r.caption, r.example === 1, caller.lang),
      RelayIMEI: r.relay_imei ?? '',
      RelayCaption: r.relay_caption ?? '',
      SenderName: r.sender_name ?? '',
      InstrType: type,
      Desc: message(caller.lang, `instr.type.${type}`),
      Detail: describeParams(params, caller.lang, r.time_zone, caller.zone),
      Params: params,
      TimeZone: r.time_zone,
      Status: r.status as InstructionStatus,
      SendTime: formatTime(r.send_time, caller.zone),
      SendAt: r.send_time,
      EstimateExecuteTime: formatTime(r.estimate_execute_time, caller.zone),
      ExecuteTime: formatTime(r.execute_time, caller.zone),
      ErrorMessage: errorMessageOf(r, caller.lang),
      CanWithdraw: r.status === 'SENT' && now - r.send_time < INSTRUCTION_WITHDRAW_WINDOW_MS,
    };
  }

  /** The devices the caller may instruct (RemoteInstr), each with its count of the type today. */
  async exceed(caller: Caller, imeis: readonly string[], type: InstrType, now = clockNow()): Promise<Exceed[]> {
    const devices = await this.devices.resolveMany(caller, imeis);
    const noRight = devices.filter((d) => d.access.kind === 'example' || !d.access.rights.RemoteInstr);
    if (noRight.length > 0) this.refuse(caller, noRight.map((d) => [d, { key: 'instr.reason.noRight' }]));
    const { from, to } = dayOf(caller.zone, now);
    const counts = await this.repo.countsSince(devices.map((d) => Number(d.id)), type, from, to);
    return devices.map((d) => {
      const n = counts.get(Number(d.id)) ?? 0;
      return { IMEI: d.imei, Caption: captionFor(d.imei, d.caption, d.access.kind === 'example', caller.lang), Count: n, Exceeded: n >= INSTRUCTIONS_PER_DEVICE_PER_DAY };
    });
  }

  async send(caller: Caller, body: SendBody, now = clockNow()): Promise<Instruction[]> {
    const devices = await this.devices.resolveMany(caller, body.imeis);
    const params = body.params;
    const type = params.Type;
    const ids = devices.map((d) => Number(d.id));
    const docs = await this.devices.workSettingsOf(ids);
    const refused: [ResolvedDevice, Reason][] = [];
    for (const d of devices) {
      const r = refusalOf(d, params, docs.get(Number(d.id)));
      if (r) refused.push([d, r]);
    }
    if (refused.some(([, r]) => r.key === 'instr.reason.noRight')) this.refuse(caller, refused.filter(([, r]) => r.key === 'instr.reason.noRight'));
    const { from, to } = dayOf(caller.zone, now);
    const counts = await this.repo.countsSince(ids, type, from, to);
    for (const d of devices) {
      if (!refused.some(([x]) => x === d) && (counts.get(Number(d.id)) ?? 0) >= INSTRUCTIONS_PER_DEVICE_PER_DAY) refused.push([d, { key: 'instr.reason.limit' }]);
    }
    if (refused.length > 0) this.refuse(caller, refused);
    const stored = JSON.stringify(params);
    const rows = devices.map((d) => {
      const doc = docs.get(Number(d.id)) ?? null;
      return { deviceId: Number(d.id), type, params: stored, timeZone: caller.zone, senderUserId: caller.session.userId, estimate: nextPostback(doc, now), commDeadline: now + commWindowMs(doc) };
    });
    const result = await this.repo.sendAll(rows, type, from, to, INSTRUCTIONS_PER_DEVICE_PER_DAY, now);
    // Another Send took the last slot between the check and the transaction.
    if ('atLimit' in result) this.refuse(caller, devices.filter((d) => result.atLimit.includes(Number(d.id))).map((d) => [d, { key: 'instr.reason.limit' }]));
    return (await this.repo.byIds(result.ids)).map((r) => this.record(r, caller, now));
  }

  async withdraw(caller: Caller, imei: string, instructionId: string, now = clockNow()): Promise<Instruction> {
    const d = await this.devices.resolve(caller, imei);
    if (d.access.kind === 'example' || !d.access.rights.RemoteInstr) this.refuse(caller, [[d, { key: 'instr.reason.noRight' }]]);
    const id = Number(instructionId);
    const row = await this.repo.get(id, Number(d.id));
    if (!row) throw new AppError(Code.NotFound, 'instr.notFound');
    const check = (r: InstructionRow) => {
      if (r.status !== 'SENT') throw new AppError(Code.Failed, 'instr.withdrawNotSent', { status: message(caller.lang, `instr.status.${r.status}`) });
      if (now - r.send_time >= INSTRUCTION_WITHDRAW_WINDOW_MS) throw new AppError(Code.Failed, 'instr.withdrawTooLate');
    };
    check(row);
    if (!(await this.repo.withdraw(id, Number(d.id), now - INSTRUCTION_WITHDRAW_WINDOW_MS + 1, now))) {
      // The device fetched and answered it (or it was withdrawn) meanwhile: say what it is now.
      const now2 = (await this.repo.get(id, Number(d.id)))!;
      check(now2);
    }
    return this.record((await this.repo.get(id, Number(d.id)))!, caller, now);
  }

  /**
   * A fence rule fired (modules/fence): its instructions go to the device as sent by the rule's owner, the
   * fence's organisation `orgId`, with the rights that organisation holds on the device at this moment
   * (DeviceGate.orgAccess: its own device, or a share open now with RemoteInstr; a share revoked,
   * expired or ended with its sharer's account since the rule was made sends nothing), then through the
   * same rules as a Send (not a VHF receiver, work status 2/3/4, the device's InstrSupport flags and
   * sensors) and the daily limit, counted in the rule's zone. Each instruction refused is skipped and its
   * reason answered (in `lang`); the others are stored SENT with their events.
   */
  async sendForRule(rule: { orgId: number; deviceId: number }, list: readonly InstructionParams[], zone: string, lang: Lang, now = clockNow()): Promise<string[]> {
    const { deviceId } = rule;
    const device = await this.repo.deviceForRule(deviceId);
    if (!device) return [];
    const access = (await this.devices.orgAccess(rule.orgId, [deviceId], now)).get(deviceId);
    if (!access) return list.map(() => message(lang, 'instr.reason.noRight'));
    const d = { ...device, access } as unknown as ResolvedDevice;
    const docs = await this.devices.workSettingsOf([deviceId]);
    const doc = docs.get(deviceId) ?? null;
    const { from, to } = dayOf(zone, now);
    const refusals: string[] = [];
    for (const params of list) {
      const r = refusalOf(d, params, doc ?? undefined);
      if (r) {
        refusals.push(message(lang, r.key, reasonParams(r, lang, zone)));
        continue;
      }
      const row = { deviceId, type: params.Type, params: JSON.stringify(params), timeZone: zone, senderUserId: null, estimate: nextPostback(doc, now), commDeadline: now + commWindowMs(doc) };
      const result = await this.repo.sendAll([row], params.Type, from, to, INSTRUCTIONS_PER_DEVICE_PER_DAY, now);
      if ('atLimit' in result) refusals.push(message(lang, 'instr.reason.limit', { limit: INSTRUCTIONS_PER_DEVICE_PER_DAY }));
    }
    return refusals;
  }

  /** Stores the sample devices' instruction history (samples.ts sampleHistory), each with its events. */
  async storeSampleHistory(entries: readonly SampleInstruction[]): Promise<void> {
    const docs = await this.devices.workSettingsOf([...new Set(entries.map((e) => e.deviceId))]);
    for (const e of entries) {
      const doc = docs.get(e.deviceId) ?? null;
      await this.repo.insertHistory({
        deviceId: e.deviceId, type: e.params.Type, params: JSON.stringify(InstructionParamsSchema.parse(e.params)), timeZone: '+00:00', senderUserId: null,
        estimate: nextPostback(doc, e.sendTime), commDeadline: e.sendTime + commWindowMs(doc), status: e.status, sendTime: e.sendTime, executeTime: e.executeTime, error: e.error, reason: e.reason,
      });
    }
  }

  /** The COMM_ERROR job's pass (docs/ingest.md "Instructions"). */
  markCommErrors(now = clockNow()): Promise<number> {
    return this.repo.markCommErrors(now);
  }
}
