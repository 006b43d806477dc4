import { linkState, type LinkState, type TreeState } from '@wildtrack/contract';

/**
 * The tree's marks (issue 12 item 1): what GetTreeState says of each device, by IMEI, and the mark it
 * earns at a given instant by the contract's rule (the device details use the same rule).
 */

/** A device's last fix (epoch ms, null: never) and its schedule's expected report gap (minutes). */
export interface DeviceLink {
  at: number | null;
  gap: number;
}

/** GetTreeState's columns as a lookup by IMEI. */
export function linkIndex(s: TreeState): Map<string, DeviceLink> {
  const out = new Map<string, DeviceLink>();
  for (let i = 0; i < s.IMEI.length; i++) out.set(s.IMEI[i]!, { at: s.LastWorkAt[i] ?? null, gap: s.ReportGapMinutes[i] ?? 0 });
  return out;
}

/** The mark of a device at `now`, or null while its state is unknown (not read yet, or not in the answer). */
export function markOf(links: ReadonlyMap<string, DeviceLink> | undefined, imei: string, now: number): LinkState | null {
  const link = links?.get(imei);
  return link ? linkState(link.at, now, link.gap) : null;
}

/** The devices whose last fix moved from one answer to the next (new devices and ones that left aside). */
export function reportedSince(before: TreeState, after: TreeState): Set<string> {
  const was = new Map<string, number | null>();
  for (let i = 0; i < before.IMEI.length; i++) was.set(before.IMEI[i]!, before.LastWorkAt[i] ?? null);
  const out = new Set<string>();
  for (let i = 0; i < after.IMEI.length; i++) {
    const imei = after.IMEI[i]!;
    if (was.has(imei) && was.get(imei) !== (after.LastWorkAt[i] ?? null)) out.add(imei);
  }
  return out;
}
