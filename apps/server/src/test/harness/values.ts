import fc from 'fast-check';
import { z } from 'zod';

/**
 * Values from a call's zod schema, through its JSON Schema (zod's `toJSONSchema`, input side): the
 * generated harnesses read only what the contract declares, so a new call is covered as soon as it is
 * defined. `minimalValue` is the smallest body the schema accepts (required fields only, shortest strings,
 * numbers nearest 0); `validValue` a random valid one (fast-check, optional fields sometimes).
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Resolves `#/$defs/x` references (recursive schemas) against the root. */
function deref(s: JsonSchema, root: JsonSchema): JsonSchema {
  if (!s.$ref) return s;
  const name = s.$ref.replace(/^#\/\$defs\//, '');
  const target = root.$defs?.[name];
  if (!target) throw new Error(`unresolved ${s.$ref}`);
  return deref(target, root);
}

function typesOf(s: JsonSchema): string[] {
  if (s.type === undefined) return [];
  return Array.isArray(s.type) ? s.type : [s.type];
}

function numberBounds(s: JsonSchema, integer: boolean): { lo: number; hi: number } {
  const step = integer ? 1 : 1e-6;
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + step : -1e9);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - step : 1e9);
  return { lo: Math.max(lo, -Number.MAX_SAFE_INTEGER), hi: Math.min(hi, Number.MAX_SAFE_INTEGER) };
}

/**
 * A string that every pattern of a string schema's allOf accepts (a password's upper, lower and digit
 * rules, an account name's first letter and character set): a few plain candidates first, else the
 * first pattern's samples that the others accept too.
 */
function stringOfPatterns(s: JsonSchema, seed: number): string | null {
  const patterns = (s.allOf ?? []).map((part) => new RegExp(part.pattern!));
  const fits = (v: string) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity) && patterns.every((p) => p.test(v)) && (!s.pattern || new RegExp(s.pattern).test(v));
  const found = ['Abcdefg1', 'Abcdef12', 'Abcdefghijk12345', 'abcdefgh'].find(fits);
  if (found) return found;
  return fc.sample(fc.stringMatching(patterns[0]!).filter(fits), { seed, numRuns: 1 })[0] ?? null;
}

/** The smallest value the schema accepts, deterministic (a pattern's string is fast-check's first sample for `seed`). */
export function minimalValue(schema: JsonSchema, root: JsonSchema = schema, seed = 1): unknown {
  const s = deref(schema, root);
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options) {
    const nullable = options.find((o) => typesOf(o).includes('null'));
    return minimalValue(nullable ?? options[0]!, root, seed);
  }
  if (s.allOf?.length && s.allOf.every((part) => part.pattern !== undefined && typesOf(part).length === 0)) return stringOfPatterns(s, seed);
  if (s.allOf?.length) return minimalValue(s.allOf[0]!, root, seed);
  const type = typesOf(s)[0];
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return false;
    case 'integer':
    case 'number': {
      const { lo, hi } = numberBounds(s, type === 'integer');
      return lo <= 0 && 0 <= hi ? 0 : type === 'integer' ? Math.ceil(lo) : lo;
    }
    case 'string':
      if (s.pattern) return fc.sample(fc.stringMatching(new RegExp(s.pattern), s.maxLength === undefined ? {} : { maxLength: s.maxLength }).filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity)), { seed, numRuns: 1 })[0];
      return 'x'.repeat(s.minLength ?? 0);
    case 'array': {
      const n = s.minItems ?? 0;
      if (s.prefixItems) return s.prefixItems.map((p) => minimalValue(p, root, seed));
      return Array.from({ length: n }, () => minimalValue(s.items ?? {}, root, seed));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = minimalValue(s.properties?.[key] ?? {}, root, seed);
      return out;
    }
    default:
      return null;
  }
}

export interface ArbitraryOptions {
  /** Longest string generated when the schema allows longer (the bad-input harness adds its own long ones). */
  maxStringLength?: number;
  /** Most items generated in an array beyond its minimum. */
  extraItems?: number;
}

/** fast-check values of the schema: mostly valid (a zod refinement the JSON Schema can't say may still refuse one). */
export function arbitraryOf(schema: JsonSchema, options: ArbitraryOptions = {}, root: JsonSchema = schema): fc.Arbitrary<unknown> {
  const s = deref(schema, root);
  const maxString = options.maxStringLength ?? 24;
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const options_ = s.anyOf ?? s.oneOf;
  if (options_) return fc.oneof(...options_.map((o) => arbitraryOf(o, options, root)));
  if (s.allOf?.length) return arbitraryOf(s.allOf[0]!, options, root);
  const types = typesOf(s);
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOf({ ...s, type }, options, root)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const { lo, hi } = numberBounds(s, true);
      return fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) });
    }
    case 'number': {
      const { lo, hi } = numberBounds(s, false);
      return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
    }
    case 'string': {
      const minLength = s.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxLength ?? maxString, maxString));
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern), s.maxLength === undefined ? {} : { maxLength }).filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity));
      return fc.string({ minLength, maxLength, unit: 'grapheme' }).filter((v) => v.length <= (s.maxLength ?? Infinity));
    }
    case 'array': {
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => arbitraryOf(p, options, root)));
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? minLength + (options.extraItems ?? 3), minLength + (options.extraItems ?? 3));
      return fc.array(arbitraryOf(s.items ?? {}, options, root), { minLength, maxLength });
    }
    case 'object': {
      const props = s.properties ?? {};
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arbitraryOf(v, options, root)]));
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** One random body the zod schema accepts, from `seed` (several tries; the minimal body if none parses). */
export function validValue(zodSchema: z.ZodType, seed: number, options: ArbitraryOptions = {}): unknown {
  const json = jsonSchemaOf(zodSchema);
  const candidates = fc.sample(arbitraryOf(json, options), { seed, numRuns: 30 });
  return candidates.find((c) => zodSchema.safeParse(c).success) ?? minimalValue(json, json, seed);
}

/** The paths (property names, array indexes) to every value inside a JSON value, the root excluded. */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...pathsOf(v, [...prefix, i])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
  }
  return [];
}

export function getAt(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const p of path) v = (v as Record<string | number, unknown> | null | undefined)?.[p];
  return v;
}

/** A copy of `value` with the value at `path` replaced (`remove`: deleted, or spliced out of an array). */
export function setAt(value: unknown, path: readonly (string | number)[], next: unknown, remove = false): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && remove) copy.splice(head as number, 1);
    else copy[head as number] = setAt(copy[head as number], rest, next, remove);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete copy[head as string];
  else copy[head as string] = setAt(copy[head as string], rest, next, remove);
  return copy;
}
