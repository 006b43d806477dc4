import { describe, expect, it } from 'vitest';
import { REASON_PATTERNS, reasonText } from './texts.js';
import { TIMESTAMP_FORMAT } from './values.js';

// The pipeline's reasons as it writes them (reader.ts, records.ts, resolver.ts): the console shows each
// in the caller's language, and its English catalogue text is the pipeline's text, word for word.
const REASONS = [
  'wrong number of fields (not 29)',
  "more fields than the header's 29: the known fields are kept, the extra ones left out",
  'no tag or individual identifier',
  'no timestamp',
  `unparseable timestamp: expected ${TIMESTAMP_FORMAT}`,
  `unparseable start-timestamp: expected ${TIMESTAMP_FORMAT}`,
  'sensor type "radio-transmitter" not imported',
  'unparseable location',
  'position out of range (longitude -180..180, latitude -90..90, altitude within 10 km): stored as invalid',
  'malformed CSV: a quote opened on line 12 is never closed, so the lines after it could not be read',
  'malformed CSV: the record starting on line 12 is longer than 1,000,000 characters (a quote never closed?), so the import stopped there and the lines after it were not read',
  'malformed CSV record (CSV_INVALID_CLOSING_QUOTE)',
  'acceleration row without samples',
  'acceleration burst without eobs:acceleration-axes',
  'acceleration burst without a sampling frequency',
  'acceleration values are not 16-bit integers',
  "acceleration values don't divide into the burst's axes",
  'acceleration sample without start-timestamp',
  'duplicate acceleration sample (same event-id)',
  'acceleration sample with other axes than the rest of its burst',
  'acceleration burst refused: too many samples',
  'no free device id for tag "5542" on "Miranda": the ids derived from it belong to other devices',
  'device MB-5542 not created: IMEI too long',
];

describe('Movebank report texts', () => {
  it.each(REASONS)('"%s" reads the same in English and is translated into Chinese', (reason) => {
    expect(reasonText('en', reason)).toBe(reason);
    expect(reasonText('zh', reason)).not.toBe(reason);
    expect(reasonText('zh', reason)).toMatch(/[\u4e00-\u9fff]/);
  });

  it('gives the expected timestamp format with its example in Chinese', () => {
    expect(reasonText('zh', `unparseable timestamp: expected ${TIMESTAMP_FORMAT}`)).toBe('无法解析的时间戳：应为 yyyy-MM-dd HH:mm:ss.SSS (UTC)，例如 2008-05-31 13:29:31.000');
  });

  it('knows every reason listed, and passes an unknown one through', () => {
    expect(REASON_PATTERNS.length).toBe(REASONS.length);
    expect(reasonText('zh', 'something new')).toBe('something new');
  });
});
