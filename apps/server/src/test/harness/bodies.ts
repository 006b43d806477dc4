import { accessRules, type CallDef } from '@wildtrack/contract';
import { type JsonSchema, jsonSchemaOf, minimalValue, setAt } from './values.js';
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

/** A string field of a body: its path (an array's first item for an array of strings) and the schemas down to it, the body's first. */
export interface StringField {
  path: (string | number)[];
  schemas: JsonSchema[];
}

/**
 * Every string field a body schema declares, at any depth (objects, arrays' first items, each branch of a
 * union), derived from the schema: what the "hidden characters per free string field" case sends its
 * characters in. Fields with a fixed set of values (enums, constants) are not free text and are left out.
 */
export function stringFields(def: CallDef): StringField[] {
  const root = objectSchema(def);
  const out = new Map<string, StringField>();
  const deref = (s: JsonSchema): JsonSchema => (s.$ref ? deref(root.$defs?.[s.$ref.replace(/^#\/\$defs\//, '')] ?? {}) : s);
  const walk = (schema: JsonSchema, path: (string | number)[], chain: JsonSchema[], depth: number) => {
    const s = deref(schema);
    if (depth > 6 || 'const' in s || s.enum) return;
    for (const option of s.anyOf ?? s.oneOf ?? []) walk(option, path, chain, depth + 1);
    if (s.anyOf || s.oneOf) return;
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
    const patterned = (s.allOf ?? []).some((part) => part.pattern !== undefined);
    if (path.length > 0 && (types.includes('string') || (types.length === 0 && patterned))) {
      const key = JSON.stringify(path);
      if (!out.has(key)) out.set(key, { path, schemas: [...chain, s] });
    }
    if (types.includes('object')) for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, [...path, k], [...chain, s], depth + 1);
    if (types.includes('array')) {
      if (s.prefixItems) s.prefixItems.forEach((p, i) => walk(p, [...path, i], [...chain, s], depth + 1));
      else if (s.items) walk(s.items, [...path, 0], [...chain, s], depth + 1);
    }
  };
  walk(root, [], [], 0);
  return [...out.values()];
}

/**
 * `base` with the string field present: each missing level on the way made the smallest its schema
 * accepts (an optional object, an empty array's first item), the field itself left as it is or made so.
 */
export function withField(base: Record<string, unknown>, field: StringField, root: JsonSchema, seed = 1): Record<string, unknown> {
  let body: unknown = base;
  for (let depth = 1; depth <= field.path.length; depth++) {
    const prefix = field.path.slice(0, depth);
    let at: unknown = body;
    for (const p of prefix) at = (at as Record<string | number, unknown> | null | undefined)?.[p];
    if (at === undefined || at === null || (depth === field.path.length && typeof at !== 'string')) {
      body = setAt(body, prefix, minimalValue(field.schemas[depth]!, root, seed));
    }
  }
  return body as Record<string, unknown>;
}
