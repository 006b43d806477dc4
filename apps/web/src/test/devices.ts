import type { DeviceDetail, MountInfo, TreeData, TreeDevice, TreeFolder, WorkStatus } from '@wildtrack/contract';

/** Devices, folders and trees for component tests, shaped by the contract's types. */

export const ALL_RIGHTS = { EditDevice: true, EditFix: true, RemoteInstr: true, ShareDevice: true, DownloadData: true, EffectiveTime: '', FailureTime: '' };

export function treeDevice(imei: string, overrides: Partial<TreeDevice> = {}): TreeDevice {
  return {
    IMEI: imei,
    Caption: `Tag ${imei.slice(-4)}`,
    RemarkName: '',
    Type: 1,
    SpeciesType: 2,
    Status: 3,
    Sensor: 1,
    InstrSupport: 0,
    Permission: 0,
    Example: false,
    SecondLevelFix: 0,
    DeviceFence: 0,
    ...overrides,
  };
}

export function folder(id: string, name: string, opts: { folders?: TreeFolder[]; devices?: TreeDevice[]; parent?: string; example?: boolean; sharedBy?: string } = {}): TreeFolder {
  const folders = opts.folders ?? [];
  const devices = opts.devices ?? [];
  return {
    IdStr: id,
    ParentIdStr: opts.parent ?? (id === '-1' ? '' : '-1'),
    Name: name,
    DeviceCount: devices.length + folders.reduce((n, f) => n + f.DeviceCount, 0),
    Example: opts.example ?? false,
    ...(opts.sharedBy ? { SharedBy: opts.sharedBy } : {}),
    Folders: folders,
    Devices: devices,
  };
}

/** Permission sets by index: 0 all rights, 1 view only, 2 download only, 3 share only. */
export const RIGHTS = [
  ALL_RIGHTS,
  { ...ALL_RIGHTS, EditDevice: false, EditFix: false, RemoteInstr: false, ShareDevice: false, DownloadData: false },
  { ...ALL_RIGHTS, EditDevice: false, EditFix: false, RemoteInstr: false, ShareDevice: false, DownloadData: true },
  { ...ALL_RIGHTS, EditDevice: false, EditFix: false, RemoteInstr: false, ShareDevice: true, DownloadData: false },
];

export function tree(...folders: TreeFolder[]): TreeData {
  const total = folders.reduce((n, f) => n + f.DeviceCount, 0);
  return { Folders: folders, Permissions: RIGHTS, Total: total, SensorCounts: { '0': total } };
}

export function deviceDetail(imei: string, overrides: Partial<DeviceDetail> = {}): DeviceDetail {
  return {
    IMEI: imei,
    Caption: `Tag ${imei.slice(-4)}`,
    RemarkName: '',
    CustomerName: 'Qinling Reserve',
    FolderIdStr: '-1',
    FolderName: '',
    ModelName: 'HQBG-3621L',
    Type: 1,
    SpeciesType: 2,
    BatteryType: 1,
    Image: '',
    Status: 3,
    Voltage: 3.9,
    BatteryLevel: 50,
    LastWorkTime: '2026-11-20 08:00:00',
    LastWorkAt: Date.UTC(2026, 10, 20, 0, 0, 0),
    ReportGapMinutes: 420,
    WorkDays: 120,
    EffectiveTime: '2026-01-01 00:00:00',
    FailureTime: '',
    Description: '',
    PostBackFrequency: '',
    PostBackTime: '',
    SamplingTimes: 0,
    Attent: false,
    FenceCount: 0,
    GNSSCollectionDesc: '',
    AccCollectionDesc: '',
    DataPostbackDesc: '',
    Sensor: 1,
    InstrSupport: 0,
    SecondLevelFix: 0,
    Example: false,
    Permission: { ...ALL_RIGHTS },
    ...overrides,
  };
}

export function mountInfo(imei: string, overrides: Partial<MountInfo> = {}): MountInfo {
  return {
    IMEI: imei,
    AnimalInfo: { Species: 'Oriental stork', ScientificName: 'Ciconia boyciana', Sex: 1, Age: 3, Weight: 4.5 },
    WorkInfo: { CaptureTime: '2026-05-01 06:30:00', MountTime: '2026-05-01 07:00:00', ReleaseTime: '2026-05-01 08:00:00', ReleaseLon: 132.5, ReleaseLat: 47.2, ReleaseSite: 'Honghe', Images: [] },
    AdditionalInfo: [{ Name: 'Ring', Value: 'C-0421' }],
    Measurements: { WingLength: 61.2, Tarsus: 240 },
    ...overrides,
  };
}

/** A known work status (as a device reported it); `{ Known: false }` ones are written out by the test. */
export function workStatus(imei: string, overrides: Partial<Extract<WorkStatus, { Known: true }>> = {}): WorkStatus {
  return {
    Known: true,
    ReportedTime: '2026-11-19 08:00:00',
    IMEI: imei,
    LastWorkTime: '2026-11-20 08:00:00',
    BatteryType: 1,
    GNSSCollectionMode: 0,
    NormalType: 'HOURS',
    CustomHours: [0, 6, 12, 18],
    IntervalMinutes: null,
    HighFrequencyIntervals: { High: 10, Medium: 30, Low: 60 },
    LowFrequencyHours: { High: [], Medium: [], Low: [] },
    DataPostbackMode: 'HOUR',
    PostbackHours: [8, 20],
    Realtime: false,
    PacketCount: null,
    PacketSize: null,
    AccEnabled: true,
    AccFollowGNSS: false,
    AccFrequencyHz: 25,
    AccIntervalMinutes: 10,
    ...overrides,
  };
}
