import { DeviceType, SpeciesType } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { DeviceInputError, type RegisterDeviceInput } from '../device/registry.js';
import { DeviceResolver, type MovebankDeviceStore } from './resolver.js';
import { movebankImei } from './values.js';

const ORG = 7;
const NOW = Date.UTC(2025, 0, 1);

/** Devices in memory, registered and updated through the resolver's two ports. */
function fakeDevices() {
  const rows = new Map<string, { id: number; org_id: number; attributes: string; input?: RegisterDeviceInput }>();
  const mounts = new Map<number, string>();
  const calls: string[] = [];
  const registry = {
    async register(input: RegisterDeviceInput) {
      calls.push(`register ${input.imei}`);
      const id = rows.size + 1;
      rows.set(input.imei, { id, org_id: input.orgId, attributes: JSON.stringify(input.attributes ?? {}), input });
      return { id, imei: input.imei, secret: 's' };
    },
  };
  const store: MovebankDeviceStore = {
    async findByImei(imei) {
      calls.push(`find ${imei}`);
      return rows.get(imei);
    },
    async setAttributes(id, attributes) {
      calls.push(`attributes ${id}`);
      for (const r of rows.values()) if (r.id === id) r.attributes = attributes;
    },
    async setMountInfo(id, info) {
      mounts.set(id, info);
    },
    async addSensors() {},
    async archiveIfPast() {
      return false;
    },
  };
  return { rows, mounts, calls, registry, store };
}

describe('DeviceResolver', () => {
  it('creates one device per tag and individual, in the folder, once per import', async () => {
    const f = fakeDevices();
    const r = new DeviceResolver(f.registry, f.store, { orgId: ORG, folderId: 3, now: NOW });
    const a = await r.resolve('T1', 'Ann', 'Study', 'Larus fuscus', 'GNSS');
    const again = await r.resolve('T1', 'Ann', 'Study', 'Larus fuscus', 'Acceleration');
    const b = await r.resolve('T1', 'Bob', 'Study', '', 'Acceleration');
    expect(again).toBe(a);
    expect(a).toEqual({ id: 1, index: 0, study: 'Study', taxon: 'Larus fuscus' });
    expect(b).toEqual({ id: 2, index: 1, study: 'Study', taxon: '' });
    expect(r.counts).toEqual({ created: 2, reused: 0 });
    expect(r.resolved.map((d) => d.id)).toEqual([1, 2]);
    const ann = f.rows.get(movebankImei('T1', 'Ann'))!.input!;
    expect(ann).toMatchObject({ orgId: ORG, folderId: 3, type: DeviceType.Tracker, caption: 'Ann', sensors: ['GNSS'], speciesType: SpeciesType.Bird });
    expect(JSON.parse(f.rows.get(movebankImei('T1', 'Bob'))!.attributes)).toEqual({
      source: 'movebank', 'study-name': 'Study', 'individual-taxon-canonical-name': '', 'tag-local-identifier': 'T1', 'individual-local-identifier': 'Bob',
    });
    expect(f.calls.filter((c) => c.startsWith('register'))).toHaveLength(2);
  });

  it('reuses a device of the organisation, merging its attributes only when they change', async () => {
    const f = fakeDevices();
    await new DeviceResolver(f.registry, f.store, { orgId: ORG, folderId: null, now: NOW }).resolve('T1', 'Ann', 'S', '', 'GNSS');
    f.rows.get(movebankImei('T1', 'Ann'))!.attributes = JSON.stringify({ ...JSON.parse(f.rows.get(movebankImei('T1', 'Ann'))!.attributes), note: 'kept' });
    f.calls.length = 0;
    const r = new DeviceResolver(f.registry, f.store, { orgId: ORG, folderId: null, now: NOW });
    expect(await r.resolve('T1', 'Ann', 'S', '', 'GNSS')).toMatchObject({ id: 1 });
    expect(f.calls).toEqual([`find ${movebankImei('T1', 'Ann')}`]);
    await new DeviceResolver(f.registry, f.store, { orgId: ORG, folderId: null, now: NOW }).resolve('T1', 'Ann', 'S2', '', 'GNSS');
    expect(JSON.parse(f.rows.get(movebankImei('T1', 'Ann'))!.attributes)).toMatchObject({ note: 'kept', 'study-name': 'S2' });
    expect(r.counts).toEqual({ created: 0, reused: 1 });
  });

  it("takes the alternative IMEI when the derived one is another pair's device", async () => {
    const f = fakeDevices();
    f.rows.set(movebankImei('T1', 'Ann'), { id: 99, org_id: ORG, attributes: JSON.stringify({ 'tag-local-identifier': 'other', 'individual-local-identifier': 'x' }) });
    const d = await new DeviceResolver(f.registry, f.store, { orgId: ORG, folderId: null, now: NOW }).resolve('T1', 'Ann', '', '', 'GNSS');
    expect(d).toMatchObject({ id: 2 });
    expect(f.rows.get(movebankImei('T1', 'Ann', true))).toMatchObject({ id: 2 });
  });

  it("gives an organisation its own device when another organisation imported the same tag first, and finds it again", async () => {
    const f = fakeDevices();
    const tagged = JSON.stringify({ 'tag-local-identifier': 'T1', 'individual-local-identifier': 'Ann' });
    f.rows.set(movebankImei('T1', 'Ann'), { id: 5, org_id: ORG + 1, attributes: tagged });
    f.rows.set(movebankImei('T1', 'Ann', true), { id: 6, org_id: ORG + 2, attributes: tagged });
    const r = new DeviceResolver(f.registry, f.store, { orgId: ORG, folderId: null, now: NOW });
    const own = await r.resolve('T1', 'Ann', '', '', 'GNSS');
    expect(own).toMatchObject({ id: 3 });
    expect(f.rows.get(movebankImei('T1', 'Ann', true, ORG))).toMatchObject({ id: 3, org_id: ORG });
    expect(f.rows.get(movebankImei('T1', 'Ann'))).toMatchObject({ id: 5, org_id: ORG + 1 });
    // the next import finds it, though the plain id is taken by the other organisation's device
    const again = new DeviceResolver(f.registry, f.store, { orgId: ORG, folderId: null, now: NOW });
    expect(await again.resolve('T1', 'Ann', '', '', 'GNSS')).toMatchObject({ id: 3 });
    expect(again.counts).toEqual({ created: 0, reused: 1 });
  });

  it("refuses a device the registry won't create, once", async () => {
    const f = fakeDevices();
    const r = new DeviceResolver({ register: async (input) => (input.caption === 'Bob' ? Promise.reject(new DeviceInputError('IMEI taken')) : f.registry.register(input)) }, f.store, {
      orgId: ORG,
      folderId: null,
      now: NOW,
    });
    expect(await r.resolve('T2', 'Bob', '', '', 'GNSS')).toEqual({ refused: `device ${movebankImei('T2', 'Bob')} not created: IMEI taken` });
    const calls = f.calls.length;
    await r.resolve('T2', 'Bob', '', '', 'GNSS');
    expect(f.calls.length).toBe(calls);
    expect(r.resolved).toEqual([]);
    await expect(new DeviceResolver({ register: () => Promise.reject(new Error('database down')) }, f.store, { orgId: ORG, folderId: null, now: NOW }).resolve('T3', 'C', '', '', 'GNSS')).rejects.toThrow('database down');
  });
});
