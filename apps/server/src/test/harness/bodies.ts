import { accessRules, type CallDef } from '@wildtrack/contract';
import { type JsonSchema, jsonSchemaOf, minimalValue } from './values.js';
import { type Subject, ZONE } from './world.js';

/**
 * A call's body for a subject: the smallest body its schema accepts, with the subject's device, folder
 * and fix in the fields that name them. The names are the contract's: a device is `imei`, `imeis` or
 * `IMEI`; a folder `folderId`, `parentId` (the second folder: a move's target, a new folder's parent) or,
 * in a call whose access names a folder and no device, `id`; a fix of the device `id` / `ids`; a range
 * `startTime`, `endTime` (around the fixture's fixes) and `timeZone`.
 */

export const DEVICE_FIELDS = ['imei', 'imeis', 'IMEI'] as const;
export const FOLDER_FIELDS = ['folderId', 'parentId', 'id'] as const;

/** The object a body schema describes (a nullish body's object branch; an upload's text fields). */
export function objectSchema(def: CallDef): JsonSchema {
  const json = jsonSchemaOf(def.multipart?.fields ?? def.body);
  const options = json.anyOf ?? json.oneOf;
  const object = options ? options.find((o) => o.type === 'object') : json;
  return { ...(object ?? { type: 'object', properties: {} }), ...(json.$defs ? { $defs: json.$defs } : {}) };
}

export function ruleKinds(def: CallDef): { device: boolean; folder: boolean } {
  const rules = def.access === undefined ? [] : accessRules(def.access);
  return { device: rules.some((r) => r.startsWith('device')), folder: rules.some((r) => r.startsWith('folder')) };
}

/** Fields of the body that name the subject, by the naming above; empty when the body names none. */
export function subjectFields(def: CallDef): string[] {
  const props = Object.keys(objectSchema(def).properties ?? {});
  const { device, folder } = ruleKinds(def);
  return props.filter(
    (p) => (device && (DEVICE_FIELDS as readonly string[]).includes(p)) || (folder && (p === 'folderId' || p === 'parentId' || (p === 'id' && !device))),
  );
}

export function bodyFor(def: CallDef, subject: Subject, range: { startTime: string; endTime: string }, seed = 1): Record<string, unknown> {
  const schema = objectSchema(def);
  const body = minimalValue(schema, schema, seed) as Record<string, unknown>;
  const props = schema.properties ?? {};
  const { device, folder } = ruleKinds(def);
  const put = (key: string, value: unknown) => {
    if (key in props) body[key] = value;
  };
  if (device) {
    put('imei', subject.imei);
    put('IMEI', subject.imei);
    put('imeis', subject.imeis ?? [subject.imei]);
    put('id', subject.fixId);
    put('ids', [subject.fixId]);
  }
  if (folder) {
    put('folderId', subject.folder);
    put('parentId', subject.target);
    if (!device) put('id', subject.folder);
  }
  // A recording of the device (world.ts) is picked at the range's start.
  put('pickTime', range.startTime);
  put('pickTimes', [range.startTime]);
  put('startTime', range.startTime);
  put('endTime', range.endTime);
  put('timeZone', ZONE);
  return body;
}
