import type { z } from 'zod';
import type { Lang } from './lang.js';
import { isMessageKey, message, type MessageKey } from './messages.js';

/**
 * A field's fault as a sentence naming the field, in either language: the one table the server's
 * refusals (601) and the web forms' own checks both read, so that a text is written once.
 *
 * The table is the catalogue's two halves: `field.<name>` labels (per field, both languages) and
 * `validation.<kind>` sentences with a `{field}` slot (per kind of fault: required, too long, too short,
 * out of range, bad format, not one of, …; a rule of its own, such as `validation.longitude`, is a kind
 * too). A zod issue is turned into a kind here (issueKind), the field's label into the slot
 * (fieldSentence): "Enter the account." / "请输入账号。", "The folder name can be at most 40 characters.",
 * "释放经度须在 -180 到 180 之间。". A field without a label, or a nested one, is named by its path
 * ("The field WorkInfo.Foo is not valid.").
 */

/** Fields whose value is chosen (a picker, a switch, a list): a missing one reads "Choose …", not "Enter …". */
const CHOSEN = new Set([
  'folderId', 'parentId', 'imeis', 'ids', 'lcid', 'app', 'email', 'enabled', 'sortField', 'sortOrder', 'speciesType',
  'status', 'Sex', 'Age', 'secondLevel', 'precision', 'validOnly', 'recursive', 'timeZone', 'motionId', 'recorder', 'kind',
]);

/** Keys of the generic kinds that a field's missing value turns into "Enter the …" (or "Choose the …"). */
const MISSING_KINDS: ReadonlySet<string> = new Set(['validation.required', 'validation.tooShort', 'validation.invalidType', 'validation.wrongType', 'validation.invalidValue', 'validation.format']);

export type FieldPath = readonly PropertyKey[];

/** A path as the envelope's `Data.Field` names it: `WorkInfo.Images[0]`, `AdditionalInfo[2].Name`. */
export function fieldPathText(path: FieldPath): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** The field's name in the language: its label (by its last named segment), or "field <path>", or "request body". */
export function fieldLabel(lang: Lang, path: FieldPath): string {
  const last = [...path].reverse().find((p): p is string => typeof p === 'string');
  if (last === undefined) return message(lang, 'validation.body');
  const key = `field.${last}`;
  return isMessageKey(key) ? message(lang, key) : message(lang, 'validation.unnamedField', { path: fieldPathText(path) });
}

function lastName(path: FieldPath): string | undefined {
  return [...path].reverse().find((p): p is string => typeof p === 'string');
}

/**
 * The sentence of a fault of a field: `key` is a `validation.*` kind (or any catalogue key), `params` its
 * values ({minimum}, {maximum}, …); `{field}` is filled with the field's label. A missing value of a
 * chosen field reads "Choose the …".
 */
export function fieldSentence(lang: Lang, path: FieldPath, key: string, params: Record<string, string | number> = {}): string {
  const name = lastName(path);
  if (key === 'validation.required' && path.length === 0) return message(lang, 'validation.noBody');
  const kind = key === 'validation.required' && name !== undefined && CHOSEN.has(name) ? 'validation.choose' : key;
  return message(lang, kind, { ...params, field: fieldLabel(lang, path) });
}

/** What zod calls a type, as a catalogue key (`validation.type.*`), when there is one. */
function typeKey(expected: string): MessageKey | undefined {
  const key = `validation.type.${expected}`;
  return isMessageKey(key) ? key : undefined;
}

function listOf(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(', ');
}

/**
 * A zod issue as its sentence's key and parameters. A schema's own message key (a rule's sentence) is
 * kept; the generic issues are told apart by zod's code and origin. `input` is the value zod saw, when
 * the parse reported it: a value of the wrong type is told from a missing one by it.
 */
export function issueKind(issue: z.core.$ZodIssue): { key: string; params: Record<string, string | number> } {
  const params: Record<string, string | number> = {};
  if ('minimum' in issue) params.minimum = String(issue.minimum);
  if ('maximum' in issue) params.maximum = String(issue.maximum);
  const present = 'input' in issue && issue.input !== undefined && issue.input !== null;
  if (issue.code === 'invalid_type' && present) {
    // A value of the wrong type, whatever message the schema gave for a missing one.
    const type = typeKey(issue.expected);
    return type ? { key: 'validation.invalidType', params: { expected: type } } : { key: 'validation.wrongType', params };
  }
  if (issue.code === 'unrecognized_keys') return { key: 'validation.unknownKeys', params: { keys: issue.keys.join(', ') } };
  if (isMessageKey(issue.message) && issue.message.startsWith('validation.')) return { key: issue.message, params };
  switch (issue.code) {
    case 'invalid_type':
      return { key: 'validation.required', params };
    case 'too_small':
      if (issue.origin === 'string') return { key: Number(issue.minimum) <= 1 ? 'validation.required' : 'validation.tooShort', params };
      if (issue.origin === 'array' || issue.origin === 'set') return { key: Number(issue.minimum) <= 1 ? 'validation.required' : 'validation.tooFew', params };
      return { key: issue.inclusive === false ? 'validation.aboveMinimum' : 'validation.tooSmall', params };
    case 'too_big':
      if (issue.origin === 'string') return { key: 'validation.tooLong', params };
      if (issue.origin === 'array' || issue.origin === 'set') return { key: 'validation.tooMany', params };
      return { key: issue.inclusive === false ? 'validation.belowMaximum' : 'validation.tooBig', params };
    case 'invalid_format':
      return { key: 'validation.format', params };
    case 'invalid_value':
      return { key: 'validation.notOneOf', params: { options: listOf(issue.values) } };
    case 'invalid_union': {
      // A union of literals (a page size of 10, 20, 50 …) is a choice among its values.
      const values = issue.errors.map((branch) => (branch.length === 1 && branch[0]!.code === 'invalid_value' ? branch[0]!.values : null));
      if (values.length > 0 && values.every((v) => v !== null)) return { key: 'validation.notOneOf', params: { options: listOf(values.flat()) } };
      return { key: 'validation.invalidValue', params };
    }
    default:
      return { key: 'validation.invalidValue', params };
  }
}

/** The path a refusal names: an unknown key's own path (`WorkInfo.x`), the issue's path otherwise. */
export function issuePath(issue: z.core.$ZodIssue): FieldPath {
  return issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined ? [...issue.path, issue.keys[0]] : issue.path;
}

/** One issue as a sentence in the language. */
export function issueSentence(lang: Lang, issue: z.core.$ZodIssue): string {
  const { key, params } = issueKind(issue);
  // The expected type travels as its catalogue key: said in the language here.
  const values = key === 'validation.invalidType' ? { ...params, expected: message(lang, String(params.expected)) } : params;
  if (key === 'validation.unknownKeys') return message(lang, key, values);
  return fieldSentence(lang, issue.path, key, values);
}

/**
 * A failed parse as the envelope tells it (601): its first issue as a sentence, and the path of the
 * field it names (`Data.Field`).
 */
export function describeIssues(lang: Lang, issues: readonly z.core.$ZodIssue[]): { text: string; field: string } {
  const issue = issues[0];
  if (!issue) return { text: fieldSentence(lang, [], 'validation.invalidValue'), field: '' };
  return { text: issueSentence(lang, issue), field: fieldPathText(issuePath(issue)) };
}

/**
 * The sentence a form shows for a value its schema refuses: as describeIssues, but an empty value refused
 * by a generic rule (a minimum length, a type) is a missing value ("Enter the …"); a rule's own sentence
 * for it ("Enter a folder name.") is kept. `field` is the contract's field name (`account`, `tdtKey`).
 */
export function formSentence(lang: Lang, field: string, value: unknown, issue: z.core.$ZodIssue | undefined): string {
  const path = [field];
  if (!issue) return fieldSentence(lang, path, 'validation.invalidValue');
  const empty = value === undefined || value === null || value === '';
  const { key } = issueKind(issue);
  if (empty && MISSING_KINDS.has(key)) return fieldSentence(lang, path, 'validation.required');
  return issueSentence(lang, { ...issue, path });
}

/** Whether a text reads as one of these sentences (a test's check): capitalised and closed in English, closed in Chinese. */
export function isSentence(lang: Lang, text: string): boolean {
  return lang === 'en' ? /^[A-Z].*[.!?]$/s.test(text) && !/^[a-z][\w -]*: /.test(text) : /[。！？]$/.test(text) && !/^[^，。]{1,12}：/.test(text);
}
