import { describe, expect, it } from 'vitest';
import { accessOf, ALL_TIME, clampToWindow, type DeviceAccess, inWindow, mayReadRecord, type Reader, windowOf } from './access.js';

/** The read rule (access.ts) alone: what every call, live delivery and event e-mail ask of it. */
describe('the read rule', () => {
  const T = Date.UTC(2026, 10, 20, 2, 0);
  const device = { deviceId: 7, orgId: 1, samples: false };
  const sample = { deviceId: 9, orgId: 99, samples: true };
  const reader = (r: Partial<Reader> = {}): Reader => ({ orgId: 2, experience: false, shares: [], ...r });
  const share = { deviceId: 7, effective: T - 1000, failure: T + 1000, dataPeriod: 'WINDOW' as const, dataFrom: null, downloadData: true, sharedBy: { userId: 5, name: 'Ann' } };

  it('own: every right, all of time; a stranger nothing', () => {
    expect(accessOf(device, reader({ orgId: 1 }), T)?.kind).toBe('own');
    expect(accessOf(device, reader(), T)).toBeNull();
  });

  it("a share open at now (its start included, its end not) gives its rights and its window; the one that ends last of several", () => {
    const a = accessOf(device, reader({ shares: [share] }), T)!;
    expect(a).toEqual({
      kind: 'shared',
      rights: { EditDevice: false, EditFix: false, RemoteInstr: false, ShareDevice: false, DownloadData: true },
      effective: T - 1000,
      failure: T + 1000,
      data: { from: T - 1000, to: T + 1000 },
      sharedBy: { userId: 5, name: 'Ann' },
    });
    expect(accessOf(device, reader({ shares: [share] }), T - 1000)?.kind).toBe('shared');
    expect(accessOf(device, reader({ shares: [share] }), T + 1000)).toBeNull();
    expect(accessOf(device, reader({ shares: [share] }), T - 1001)).toBeNull();
    expect(accessOf(device, reader({ shares: [{ ...share, deviceId: 8 }] }), T)).toBeNull();
    const later = { ...share, failure: T + 5000, editDevice: true };
    expect(accessOf(device, reader({ shares: [share, later] }), T)).toMatchObject({ failure: T + 5000, rights: { EditDevice: true } });
  });

  it('a sample device: read-only while the experience switch is on; a share of it is a share (as the calls always answered)', () => {
    expect(accessOf(sample, reader({ experience: true }), T)?.kind).toBe('example');
    expect(accessOf(sample, reader(), T)).toBeNull();
    expect(accessOf(sample, reader({ shares: [{ ...share, deviceId: 9 }] }), T)?.kind).toBe('shared');
  });

  it("a record is readable when the device is and its time is inside the share's window (both ends included)", () => {
    const r = reader({ shares: [share] });
    expect(mayReadRecord(device, r, T, T - 1000)).toBe(true);
    expect(mayReadRecord(device, r, T, T + 1000)).toBe(true);
    expect(mayReadRecord(device, r, T, T - 1001)).toBe(false);
    expect(mayReadRecord(device, reader({ orgId: 1 }), T, 0)).toBe(true);
  });

  it("a share's data period, not its window, bounds what is read: ALL every record, FROM from its time on; a stored share without one reads its window", () => {
    expect(mayReadRecord(device, reader({ shares: [{ ...share, dataPeriod: 'ALL' }] }), T, 0)).toBe(true);
    const from = reader({ shares: [{ ...share, dataPeriod: 'FROM', dataFrom: T - 5000 }] });
    expect(mayReadRecord(device, from, T, T - 5000)).toBe(true);
    expect(mayReadRecord(device, from, T, T - 5001)).toBe(false);
    expect(mayReadRecord(device, reader({ shares: [{ ...share, dataPeriod: null }] }), T, T - 1001)).toBe(false);
    // The window still decides whether the share is valid at all.
    expect(mayReadRecord(device, reader({ shares: [{ ...share, dataPeriod: 'ALL' }] }), T + 1000, 0)).toBe(false);
  });
});

describe('clampToWindow', () => {
  const shared: DeviceAccess = { kind: 'shared', rights: { EditDevice: false, EditFix: false, RemoteInstr: false, ShareDevice: false, DownloadData: false }, effective: 100, failure: 200, data: { from: 100, to: 200 } };
  const own: DeviceAccess = { ...shared, kind: 'own', effective: null, failure: null, data: null };

  it("cuts a range to a share's window, both ends included; leaves an own or example device's range as it is", () => {
    expect(clampToWindow({ from: 0, to: 1000 }, shared)).toEqual({ from: 100, to: 200 });
    expect(clampToWindow({ from: 150, to: 160 }, shared)).toEqual({ from: 150, to: 160 });
    expect(clampToWindow({ from: 300, to: 400 }, shared)).toEqual({ from: 300, to: 200 }); // nothing of it: from > to
    expect(clampToWindow({ from: 0, to: 1000 }, own)).toEqual({ from: 0, to: 1000 });
    expect(clampToWindow({ from: 0, to: 1000 }, { ...shared, kind: 'example', data: null })).toEqual({ from: 0, to: 1000 });
    expect(clampToWindow(ALL_TIME, shared)).toEqual({ from: 100, to: 200 });
    expect(clampToWindow(ALL_TIME, own)).toEqual(ALL_TIME);
    expect(windowOf(own)).toEqual({ from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY });
    expect([99, 100, 200, 201].map((t) => inWindow(t, shared))).toEqual([false, true, true, false]);
  });
});
