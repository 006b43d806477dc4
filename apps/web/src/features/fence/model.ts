import {
  CreateFence,
  FENCE_RULE_TYPE,
  issueSentence,
  type Fence,
  type FenceShape,
  type GnssCollection,
  type InOrOut,
  type Lang,
  type Postback,
} from '@wildtrack/contract';
import type { z } from 'zod';

/**
 * A fence as the user edits it (§3 "Geofence as the user edits it"): name, enabled flag, shape, when the
 * rule fires (enter and/or leave), where it is evaluated (the server, or the device), whether it sends
 * instructions, the associated devices, collection time and transmission frequency. The form is checked
 * with the contract's own body schema (CreateFence), so its messages are the sentences the server would
 * answer, in the interface language; the server checks again (a self-crossing ring, rights) and its
 * refusal is shown as it says it.
 */
export interface CollectionDraft {
  mode: 'INTERVAL' | 'HOURS';
  minutes: number | null;
  hours: number[];
}

export interface PostbackDraft {
  mode: 'HOUR' | 'DATA_CNT';
  hours: number[];
  packetCount: number | null;
  packetSize: number | null;
  realtime: boolean;
}

export interface FenceDraft {
  /** The stored fence's id; null for a new one. */
  id: string | null;
  label: string;
  enabled: boolean;
  shape: FenceShape | null;
  inOrOut: InOrOut;
  ruleType: 1 | 2;
  allowSendInstr: boolean;
  imeis: string[];
  collection: CollectionDraft;
  postback: PostbackDraft;
}

export function emptyDraft(): FenceDraft {
  return {
    id: null,
    label: '',
    enabled: true,
    shape: null,
    inOrOut: 'ENTER',
    ruleType: FENCE_RULE_TYPE.Remote,
    allowSendInstr: false,
    imeis: [],
    collection: { mode: 'INTERVAL', minutes: null, hours: [] },
    postback: { mode: 'HOUR', hours: [], packetCount: null, packetSize: null, realtime: false },
  };
}

/** A stored fence in the form. */
export function draftOf(fence: Fence): FenceDraft {
  const c = fence.Collection;
  const p = fence.Postback;
  const base = emptyDraft();
  return {
    id: fence.IdStr,
    label: fence.Label,
    enabled: fence.Enabled === 1,
    shape: fence.Shape,
    inOrOut: fence.InOrOut,
    ruleType: fence.RuleType === FENCE_RULE_TYPE.Device ? FENCE_RULE_TYPE.Device : FENCE_RULE_TYPE.Remote,
    allowSendInstr: fence.AllowSendInstr === 1,
    imeis: fence.Devices.map((d) => d.IMEI),
    collection:
      c.Mode === 'INTERVAL' ? { ...base.collection, mode: 'INTERVAL', minutes: c.IntervalMinutes } : c.Mode === 'HOURS' ? { ...base.collection, mode: 'HOURS', hours: [...c.Hours] } : base.collection,
    postback:
      p.Mode === 'HOUR'
        ? { ...base.postback, mode: 'HOUR', hours: [...p.Hours], realtime: p.Realtime }
        : { ...base.postback, mode: 'DATA_CNT', packetCount: p.PacketCount, packetSize: p.PacketSize, realtime: p.Realtime },
  };
}

function collectionOf(c: CollectionDraft): GnssCollection | Record<string, unknown> {
  return c.mode === 'INTERVAL' ? { Mode: 'INTERVAL', IntervalMinutes: c.minutes } : { Mode: 'HOURS', Hours: [...c.hours].sort((a, b) => a - b) };
}

function postbackOf(p: PostbackDraft): Postback | Record<string, unknown> {
  return p.mode === 'HOUR'
    ? { Mode: 'HOUR', Hours: [...p.hours].sort((a, b) => a - b), Realtime: p.realtime }
    : { Mode: 'DATA_CNT', PacketCount: p.packetCount, PacketSize: p.packetSize, Realtime: p.realtime };
}

/** The form's fields, in the order they show; a contract issue is shown at the first of its path. */
export const DRAFT_FIELDS = ['label', 'shape', 'imeis', 'collection', 'postback', 'inOrOut', 'ruleType'] as const;
export type DraftField = (typeof DRAFT_FIELDS)[number];

export type CreateBody = z.input<typeof CreateFence.body>;

/** The body of Create (and, with fenceId, of Update) for a draft; not checked (issuesOf does). */
export function bodyOf(draft: FenceDraft, timeZone: string): Record<string, unknown> {
  return {
    label: draft.label,
    shape: draft.shape ?? undefined,
    enabled: draft.enabled ? 1 : 0,
    inOrOut: draft.inOrOut,
    ruleType: draft.ruleType,
    allowSendInstr: draft.allowSendInstr ? 1 : 0,
    imeis: draft.imeis,
    collection: collectionOf(draft.collection),
    postback: postbackOf(draft.postback),
    timeZone,
  };
}

/**
 * What is wrong with a draft, by field: the contract's sentence for the field's first issue, in `lang`
 * (§5 Geofence: a name, a finished drawing, at least one device, collection time and transmission
 * frequency). An empty map when the body would be accepted by the schema.
 */
export function issuesOf(draft: FenceDraft, lang: Lang, timeZone: string): Map<DraftField, string> {
  const out = new Map<DraftField, string>();
  const result = CreateFence.body.safeParse(bodyOf(draft, timeZone), { reportInput: true });
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const head = String(issue.path[0] ?? '');
    const field: DraftField = head === 'label' ? 'label' : (DRAFT_FIELDS as readonly string[]).includes(head) ? (head as DraftField) : 'label';
    if (!out.has(field)) out.set(field, issueSentence(lang, issue));
  }
  return out;
}
