import { type Lang, message, type MessageKey } from '@wildtrack/contract';

/**
 * The import pipeline writes its reasons and format errors in English (the CLI prints them as they are);
 * the console shows them in the caller's language. Each English text is matched here to its catalogue
 * message, whose English template is the pipeline's text (texts.test.ts checks the round trip); a text
 * not listed passes through unchanged.
 */
type Rule = [RegExp, MessageKey, (m: RegExpMatchArray) => Record<string, string>];

const none = () => ({});

const REASONS: Rule[] = [
  [/^wrong number of fields \(not (\d+)\)$/, 'movebank.reason.wrongFields', (m) => ({ count: m[1]! })],
  [/^more fields than the header's (\d+): the known fields are kept, the extra ones left out$/, 'movebank.reason.extraFields', (m) => ({ count: m[1]! })],
  [/^no tag or individual identifier$/, 'movebank.reason.noId', none],
  [/^no timestamp$/, 'movebank.reason.noTimestamp', none],
  [/^unparseable timestamp: expected (.*)$/s, 'movebank.reason.badTimestamp', (m) => ({ format: m[1]! })],
  [/^unparseable start-timestamp: expected (.*)$/s, 'movebank.reason.badStart', (m) => ({ format: m[1]! })],
  [/^sensor type "(.*)" not imported$/s, 'movebank.reason.sensorType', (m) => ({ type: m[1]! })],
  [/^unparseable location$/, 'movebank.reason.badLocation', none],
  [/^position out of range \(longitude -180\.\.180, latitude -90\.\.90, altitude within 10 km\): stored as invalid$/, 'movebank.reason.outOfRange', none],
  [/^malformed CSV: a quote opened on line (\d+) is never closed, so the lines after it could not be read$/, 'movebank.reason.quoteNotClosed', (m) => ({ line: m[1]! })],
  [/^malformed CSV: the record starting on line (\d+) is longer than ([\d,]+) characters \(a quote never closed\?\), so the import stopped there and the lines after it were not read$/, 'movebank.reason.recordTooLong', (m) => ({ line: m[1]!, max: m[2]! })],
  [/^malformed CSV record \((.*)\)$/s, 'movebank.reason.malformed', (m) => ({ code: m[1]! })],
  [/^acceleration row without samples$/, 'movebank.reason.accNoSamples', none],
  [/^acceleration burst without eobs:acceleration-axes$/, 'movebank.reason.accNoAxes', none],
  [/^acceleration burst without a sampling frequency$/, 'movebank.reason.accNoHz', none],
  [/^acceleration values are not 16-bit integers$/, 'movebank.reason.accInt16', none],
  [/^acceleration values don't divide into the burst's axes$/, 'movebank.reason.accAxes', none],
  [/^acceleration sample without start-timestamp$/, 'movebank.reason.accNoStart', none],
  [/^duplicate acceleration sample \(same event-id\)$/, 'movebank.reason.accDuplicate', none],
  [/^acceleration sample with other axes than the rest of its burst$/, 'movebank.reason.accOtherAxes', none],
  [/^acceleration burst refused: (.*)$/s, 'movebank.reason.accRefused', (m) => ({ error: m[1]! })],
  [/^no free device id for tag "(.*)" on "(.*)": the ids derived from it belong to other devices$/s, 'movebank.reason.noDeviceId', (m) => ({ tag: m[1]!, individual: m[2]! })],
  [/^device (\S+) not created: (.*)$/s, 'movebank.reason.deviceRefused', (m) => ({ imei: m[1]!, error: m[2]! })],
];

/** A skipped-row or notice reason of the pipeline, in the caller's language. */
export function reasonText(lang: Lang, reason: string): string {
  for (const [re, key, params] of REASONS) {
    const m = reason.match(re);
    if (!m) continue;
    const p = params(m);
    // the expected timestamp format's example is introduced in the caller's language too
    if (lang === 'zh' && p.format) p.format = p.format.replace(', e.g. ', '，例如 ');
    return message(lang, key, p);
  }
  return reason;
}

/** The English reasons the console knows, for the round-trip test. */
export const REASON_PATTERNS: readonly RegExp[] = REASONS.map((r) => r[0]);

/** A stored message: the catalogue key and its parameters (a job's error column). */
export interface StoredMessage {
  key: MessageKey;
  params: Record<string, string | number>;
}

/**
 * A MovebankFormatError's message (`<server path>: <problem>`) as a catalogue message naming the
 * user's file instead of the server's path.
 */
export function formatErrorMessage(text: string, file: string, fileName: string): StoredMessage {
  const problem = text.startsWith(`${file}: `) ? text.slice(file.length + 2) : text;
  const columns = problem.match(/no "timestamp" column \(its columns: (.*)\)$/s);
  if (columns) return { key: 'movebank.noTimestamp', params: { file: fileName, columns: columns[1]! } };
  if (problem.includes('neither an "individual-local-identifier"')) return { key: 'movebank.noIdentifier', params: { file: fileName } };
  if (problem.includes('not Movebank reference data')) return { key: 'movebank.notReference', params: { file: fileName } };
  // a delivery that does not unpack to a CSV (delivery.ts)
  if (problem.includes('is a spreadsheet, not a CSV')) return { key: 'movebank.spreadsheet', params: { file: fileName } };
  if (problem.includes('its first line is not CSV')) return { key: 'movebank.notCsv', params: { file: fileName } };
  if (problem.includes('holds binary data')) return { key: 'movebank.notText', params: { file: fileName } };
  if (problem.includes('encrypted or compressed in a way')) return { key: 'movebank.zipUnsupported', params: { file: fileName } };
  if (problem.startsWith('a damaged ')) return { key: 'movebank.damaged', params: { file: fileName } };
  const inZip = problem.match(/^the zip holds (no Movebank CSV \(its files: |several CSV files \()(.*)\)(: import them one at a time)?$/s);
  if (inZip) return { key: inZip[1]!.startsWith('no') ? 'movebank.zipNoCsv' : 'movebank.zipSeveral', params: { file: fileName, files: inZip[2]! } };
  return { key: 'movebank.empty', params: { file: fileName } };
}
