import { z } from 'zod';
import { defineCall, EmptyBody, ZeroOne } from '../call.js';
import { PageSchema, SortOrderSchema, TimeZoneField } from '../paging.js';
import { BatteryType, DeviceType, INSTR_SUPPORT_NAMES, type InstrSupportName, SENSOR_FLAG_NAMES, type SensorFlagName } from '../device.js';
import { DeviceImeiSchema, freeText, ImeiSchema as imei, plainLines, plainText, required } from '../validation.js';

/**
 * Tree, folders, devices, animal info and work status (§3, §7.2). Ids travel as strings (IdStr) so
 * that 64-bit ids survive JavaScript; '-1' is the root (the list) and '0' the experience folder.
 */

export const ROOT_FOLDER_ID = '-1';
export const EXPERIENCE_FOLDER_ID = '0';
/** Prefix of the virtual folder holding the devices one user shared with the caller: 'share-<userId>'. */
export const SHARED_FOLDER_PREFIX = 'share-';

const folderId = freeText(required).trim().min(1, required).max(40, { error: 'validation.tooLong' });
export const FolderNameSchema = z
  .string(required)
  .trim()
  .min(1, { error: 'validation.folderName.required' })
  .max(40, { error: 'validation.folderName.length' })
  .refine(plainText.check, { error: plainText.error });
export const RemarkNameSchema = z.string(required).trim().max(40, { error: 'validation.remarkName.length' }).refine(plainText.check, { error: plainText.error });

export const DevicePermissionSchema = z.object({
  EditDevice: z.boolean(),
  EditFix: z.boolean(),
  RemoteInstr: z.boolean(),
  ShareDevice: z.boolean(),
  DownloadData: z.boolean(),
  /** Start and end of the right, in the caller's zone; empty when unbounded (own devices). */
  EffectiveTime: z.string(),
  FailureTime: z.string(),
});
export type DevicePermission = z.infer<typeof DevicePermissionSchema>;

/**
 * A device as a tree node (SimplyDevice, §3), kept small because an organisation may have tens of
 * thousands (bench/tree): its folder is the folder that holds it, and its Permission is an index into
 * TreeData.Permissions, where each distinct permission set appears once. Voltage, last work time and
 * the rest of the details come from GetDetailByFolder / GetDetailByIMEI.
 */
export const TreeDeviceSchema = z.object({
  IMEI: z.string(),
  Caption: z.string(),
  RemarkName: z.string(),
  Type: z.number().int(),
  SpeciesType: z.number().int(),
  Status: z.number().int(),
  /** Sensor support flags (SensorFlag bits). */
  Sensor: z.number().int(),
  InstrSupport: z.number().int(),
  /** Index into TreeData.Permissions. */
  Permission: z.number().int().min(0),
  Example: z.boolean(),
  SecondLevelFix: ZeroOne,
  DeviceFence: z.number().int(),
});
export type TreeDevice = z.infer<typeof TreeDeviceSchema>;

export interface TreeFolder {
  IdStr: string;
  ParentIdStr: string;
  Name: string;
  /** Devices in this folder and all below it. */
  DeviceCount: number;
  Example: boolean;
  /** The folder holds devices another user shared: who shared them. */
  SharedBy?: string | undefined;
  Folders: TreeFolder[];
  Devices: TreeDevice[];
}
export const TreeFolderSchema: z.ZodType<TreeFolder> = z.lazy(() =>
  z.object({
    IdStr: z.string(),
    ParentIdStr: z.string(),
    Name: z.string(),
    DeviceCount: z.number().int(),
    Example: z.boolean(),
    SharedBy: z.string().optional(),
    Folders: z.array(TreeFolderSchema),
    Devices: z.array(TreeDeviceSchema),
  }),
);

export const TreeDataSchema = z.object({
  /** The root '-1' with the organisation's folders and devices, then '0' (experience) and shared folders. */
  Folders: z.array(TreeFolderSchema),
  /** The distinct permission sets of the tree's devices; each device names one by its index. */
  Permissions: z.array(DevicePermissionSchema),
  Total: z.number().int(),
  /** Devices per sensor filter value of §6 (0 = all). */
  SensorCounts: z.record(z.string(), z.number().int()),
});
export type TreeData = z.infer<typeof TreeDataSchema>;

export const GetTree = defineCall({
  path: '/api/Device/GetTree',
  auth: 'session',
  access: 'session',
  body: z.object({ timeZone: TimeZoneField }).nullish(),
  data: TreeDataSchema,
  summary: 'The folder tree with every device the caller may see, counts per folder and per sensor.',
});

/**
 * What the tree's online / late / silent marks need (device-state.ts linkState) for every device of the
 * tree, as three columns in one order. A call of its own beside GetTree: the tree changes when folders and
 * devices are edited (the server keeps it per organisation until then, and it weighs ~2 MB for 10,000
 * devices), this with every fix that arrives, so the console reads it again every minute and the tree not.
 * A call of ours: the spec has no payload for it.
 */
export const TreeStateSchema = z.object({
  IMEI: z.array(z.string()),
  /** When the device's last fix was taken, epoch ms; null: it never reported. */
  LastWorkAt: z.array(z.number().nullable()),
  /** The expected report gap of its configured schedule, minutes (device-state.ts expectedReportGapMinutes). */
  ReportGapMinutes: z.array(z.number()),
});
export type TreeState = z.infer<typeof TreeStateSchema>;

export const GetTreeState = defineCall({
  path: '/api/Device/GetTreeState',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: TreeStateSchema,
  summary: "The last fix time and expected report gap of every device of the caller's tree, for the tree's online / late / silent marks.",
});

export const FolderOnlySchema: z.ZodType<FolderOnly> = z.lazy(() =>
  z.object({ IdStr: z.string(), ParentIdStr: z.string(), Name: z.string(), DeviceCount: z.number().int(), Folders: z.array(FolderOnlySchema) }),
);
export interface FolderOnly {
  IdStr: string;
  ParentIdStr: string;
  Name: string;
  DeviceCount: number;
  Folders: FolderOnly[];
}

export const GetFolderTree = defineCall({
  path: '/api/Folder/GetTree',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.object({ Folders: z.array(FolderOnlySchema) }),
  summary: "The organisation's folders (the move-to picker): the root '-1' and everything below it.",
});

export const CreateFolder = defineCall({
  path: '/api/Folder/Create',
  auth: 'session',
  access: 'folder edit',
  body: z.object({ name: FolderNameSchema, parentId: folderId }),
  data: z.object({ IdStr: z.string() }),
  summary: "Creates a folder under parentId ('-1' = the root).",
});

export const UpdateFolderName = defineCall({
  path: '/api/Folder/UpdateName',
  auth: 'session',
  access: 'folder edit',
  body: z.object({ id: folderId, name: FolderNameSchema }),
  data: z.null(),
  summary: 'Renames a folder.',
});

export const DeleteFolder = defineCall({
  path: '/api/Folder/Delete',
  auth: 'session',
  access: 'folder edit',
  body: z.object({ id: folderId }),
  data: z.null(),
  summary: 'Deletes an empty folder (one that holds devices, also below it, is refused with a warning).',
});

export const MoveFolder = defineCall({
  path: '/api/Folder/Move',
  auth: 'session',
  access: 'folder edit',
  body: z.object({ id: folderId, parentId: folderId }),
  data: z.null(),
  summary: 'Moves a folder under another (never under itself or its own descendants).',
});

export const MoveDevice = defineCall({
  path: '/api/Device/Move',
  auth: 'session',
  access: ['device own', 'folder edit'],
  body: z.object({ imei, folderId }),
  data: z.null(),
  summary: 'Moves a device of the organisation into a folder.',
});

export const UpdateRemarkName = defineCall({
  path: '/api/Device/UpdateRemarkName',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, remarkName: RemarkNameSchema }),
  data: z.null(),
  summary: "The caller's own name for a device (every visible device, examples included).",
});

export const SetSecondLevelFixEnable = defineCall({
  path: '/api/Device/SetSecondLevelFixEnable',
  auth: 'session',
  access: 'device right EditDevice',
  body: z.object({ imei, enabled: ZeroOne }),
  data: z.null(),
  summary: 'Turns second-level fixes (10 fixes at 1 s) on or off; needs EditDevice, never for phones.',
});

export const UpdateProperty = defineCall({
  path: '/api/Device/UpdateProperty',
  auth: 'session',
  access: 'device right EditDevice',
  body: z.object({
    imei,
    caption: z.string().trim().min(1, required).max(40, { error: 'validation.tooLong' }).refine(plainText.check, { error: plainText.error }).optional(),
    description: z.string().trim().max(500, { error: 'validation.tooLong' }).refine(plainLines.check, { error: plainLines.error }).optional(),
    speciesType: z.number().int().min(0).max(3).optional(),
    status: z.number().int().min(1).max(9).optional(),
  }),
  data: z.null(),
  summary: 'Edits device properties (caption, description, species type, status); needs EditDevice.',
});

export const REGISTER_DEVICE_PATH = '/api/Device/Register';
/** The device types a console registration takes (not Unknown). */
export const REGISTER_DEVICE_TYPES = [DeviceType.Tracker, DeviceType.VHFReceiver, DeviceType.Phone] as const;
export const REGISTER_BATTERY_TYPES = [BatteryType.Unknown, BatteryType.Li, BatteryType.LIC, BatteryType.LiSOCl2Added] as const;

// a union of literals (not a refined number) so that what reads the schema — the harness's body generator,
// the web's form — sees the values it allows
const oneOfNumbers = <T extends readonly [number, number, ...number[]]>(values: T) =>
  z.union(values.map((v) => z.literal(v)) as unknown as [z.ZodLiteral<T[number]>, z.ZodLiteral<T[number]>, ...z.ZodLiteral<T[number]>[]], {
    error: (issue) => (issue.input === undefined ? 'validation.choose' : 'validation.invalidValue'),
  });

/**
 * A real device registered from the console (issue 28 item 1): its IMEI with the check digit, type,
 * model, name, sensors (Device.Sensor flag names), the instructions it can carry out (Device.InstrSupport
 * flag names: acceleration on/off and frequency, voltage-adaptive GNSS, postback at set hours; an
 * instruction needing one it lacks is refused), battery type and the folder of the caller's organisation
 * ('-1' the root). The caption defaults to the IMEI.
 */
export const RegisterDeviceBody = z.object({
  imei: DeviceImeiSchema,
  deviceType: oneOfNumbers(REGISTER_DEVICE_TYPES),
  model: z.string().trim().max(40, { error: 'validation.tooLong' }).refine(plainText.check, { error: plainText.error }).default(''),
  caption: z.string().trim().max(40, { error: 'validation.tooLong' }).refine(plainText.check, { error: plainText.error }).default(''),
  sensors: z.array(z.enum(SENSOR_FLAG_NAMES as [SensorFlagName, ...SensorFlagName[]], { error: 'validation.invalidValue' })).max(32).default(['GNSS']),
  instrSupport: z.array(z.enum(INSTR_SUPPORT_NAMES as [InstrSupportName, ...InstrSupportName[]], { error: 'validation.invalidValue' })).max(16).default([]),
  batteryType: oneOfNumbers(REGISTER_BATTERY_TYPES).default(BatteryType.Unknown),
  folderId: folderId.default('-1'),
});
export type RegisterDeviceInput = z.output<typeof RegisterDeviceBody>;

export const RegisteredDeviceSchema = z.object({
  IMEI: z.string(),
  Caption: z.string(),
  /** The device's ingest secret: shown this once, never answered again (the server keeps it to check signatures). */
  Secret: z.string(),
  /** An example signed ingest request (a fix sent to /ingest/v1/batch, signed with the secret now), as text to copy. */
  ExampleRequest: z.string(),
});
export type RegisteredDevice = z.infer<typeof RegisteredDeviceSchema>;

export const RegisterDevice = defineCall({
  path: REGISTER_DEVICE_PATH,
  auth: 'session',
  access: ['primary', 'folder edit'],
  body: RegisterDeviceBody,
  data: RegisteredDeviceSchema,
  summary: "Registers a real device of the caller's organisation with its abilities and answers its ingest secret, shown once, with an example signed request (primary user only).",
});

/** Device detail (§3) as the details tab shows it; times in the caller's zone. */
export const DeviceDetailSchema = z.object({
  IMEI: z.string(),
  Caption: z.string(),
  RemarkName: z.string(),
  CustomerName: z.string(),
  FolderIdStr: z.string(),
  FolderName: z.string(),
  ModelName: z.string(),
  Type: z.number().int(),
  SpeciesType: z.number().int(),
  BatteryType: z.number().int(),
  Image: z.string(),
  Status: z.number().int(),
  Voltage: z.number().nullable(),
  /** Battery percent on the curve of the battery type (device-state.ts batteryLevelOf), null without a voltage. */
  BatteryLevel: z.number().int().nullable(),
  LastWorkTime: z.string(),
  /** The last fix's time, epoch ms (null: never reported): the web tells "12 min ago" and the mark from it. */
  LastWorkAt: z.number().nullable(),
  /** The expected report gap of the configured schedule, minutes (device-state.ts expectedReportGapMinutes). */
  ReportGapMinutes: z.number(),
  WorkDays: z.number().int(),
  EffectiveTime: z.string(),
  FailureTime: z.string(),
  Description: z.string(),
  PostBackFrequency: z.string(),
  PostBackTime: z.string(),
  /** Fixes a day by the work status; null when it is unknown (the device never reported one). */
  SamplingTimes: z.number().int().nullable(),
  Attent: z.boolean(),
  FenceCount: z.number().int(),
  GNSSCollectionDesc: z.string(),
  AccCollectionDesc: z.string(),
  DataPostbackDesc: z.string(),
  Sensor: z.number().int(),
  InstrSupport: z.number().int(),
  SecondLevelFix: ZeroOne,
  Example: z.boolean(),
  Permission: DevicePermissionSchema,
});
export type DeviceDetail = z.infer<typeof DeviceDetailSchema>;

/** The one GET of the API (§7.2): query imei and timeZone. */
export const GetDetailByIMEI = defineCall({
  path: '/api/Device/GetDetailByIMEI',
  method: 'GET',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, timeZone: TimeZoneField }),
  data: DeviceDetailSchema,
  summary: 'GET with query imei and timeZone: the details of one device.',
});

export const DEVICE_SORT_FIELDS = ['Caption', 'IMEI', 'Status', 'Voltage', 'LastWorkTime', 'ModelName'] as const;

export const GetDetailByFolder = defineCall({
  path: '/api/Device/GetDetailByFolder',
  auth: 'session',
  access: 'folder read',
  body: z.object({
    folderId,
    ...PageSchema,
    sortField: z.enum(DEVICE_SORT_FIELDS).optional(),
    sortOrder: SortOrderSchema.optional(),
    /** Include devices in folders below (default true). */
    recursive: z.boolean().default(true),
    timeZone: TimeZoneField,
  }),
  data: z.object({ List: z.array(DeviceDetailSchema), Total: z.number().int() }),
  summary: 'One page of the devices in a folder, with their details.',
});

export const GetCountByFolder = defineCall({
  path: '/api/Device/GetCountByFolder',
  auth: 'session',
  access: 'folder read',
  body: z.object({ folderId, recursive: z.boolean().default(true) }),
  data: z.object({ Count: z.number().int() }),
  summary: 'How many devices a folder holds.',
});

export const GetHandheldList = defineCall({
  path: '/api/Device/GetHandheldList',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.array(z.object({ IMEI: z.string(), Caption: z.string(), RemarkName: z.string() })),
  summary: 'The handheld devices (phones) the caller may see.',
});

export const SetExperienceFuncEnable = defineCall({
  path: '/api/User/SetExperienceFuncEnable',
  auth: 'session',
  access: 'session',
  body: z.object({ enabled: ZeroOne }),
  data: z.null(),
  summary: 'Shows (1) or hides (0) the experience devices for the caller.',
});
