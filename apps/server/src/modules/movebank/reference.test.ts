import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Age, Sex } from '@wildtrack/contract';
import { REFERENCE_COLUMNS } from './columns.js';
import { modelOf, mountInfoOf, readReference } from './reference.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-movebank-reference-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;

type RefField = keyof typeof REFERENCE_COLUMNS;
/** A value for each field and what the import makes of it. */
const CASES: Record<RefField, { value: string; read: (info: ReturnType<typeof mountInfoOf>, model: string | undefined) => unknown; expected: unknown }> = {
  tag: { value: '', read: () => undefined, expected: undefined },
  individual: { value: '', read: () => undefined, expected: undefined },
  taxon: { value: 'Haematopus ostralegus', read: (i) => i?.ScientificName, expected: 'Haematopus ostralegus' },
  sex: { value: 'f', read: (i) => i?.Sex, expected: Sex.Female },
  lifeStage: { value: 'adult', read: (i) => i?.Age, expected: Age.Adult },
  mass: { value: '550.0', read: (i) => i?.Weight, expected: 0.55 }, // grams in Movebank, kilograms kept
  deployOn: { value: '2018-05-04 09:30:00.000', read: (i) => i?.MountTime, expected: Date.UTC(2018, 4, 4, 9, 30) },
  ringId: { value: 'RG-CHYZ', read: (i) => i?.AdditionalInfo.RingId, expected: 'RG-CHYZ' },
  nickName: { value: 'Olga', read: (i) => i?.AdditionalInfo.NickName, expected: 'Olga' },
  studySite: { value: 'O_ASSEN', read: (i) => i?.AdditionalInfo.StudySite, expected: 'O_ASSEN' },
  attachmentType: { value: 'harness', read: (i) => i?.AdditionalInfo.AttachmentType, expected: 'harness' },
  deploymentId: { value: '15652', read: (i) => i?.AdditionalInfo.DeploymentId, expected: '15652' },
  model: { value: 'UvA-BiTS', read: (_, m) => m, expected: 'UvA-BiTS' },
};

/** Every name of the dictionary, in the study download's snake_case and in the older CSV's hyphens. */
const spellings = Object.entries(REFERENCE_COLUMNS).flatMap(([field, names]) =>
  names.flatMap((name) => [[field as RefField, name], [field as RefField, name.replace(/_/g, '-')]] as const),
);

describe('the reference-data dictionary', () => {
  it.each(spellings)('reads %s from a column named %s', async (field, name) => {
    const ids = { tag: REFERENCE_COLUMNS.tag, individual: REFERENCE_COLUMNS.individual };
    // the pair's columns: this name for its own field, the other field's first name otherwise
    const tagName = field === 'tag' ? name : ids.tag[0];
    const individualName = field === 'individual' ? name : ids.individual[0];
    const header = [tagName, individualName, ...(field === 'tag' || field === 'individual' ? [] : [name])];
    const values = ['T7', 'Ann', ...(field === 'tag' || field === 'individual' ? [] : [CASES[field].value])];
    const file = path.join(dir, `r${++files}.csv`);
    fs.writeFileSync(file, `${header.join(',')}\n${values.join(',')}\n`);
    const rows = (await readReference(file)).find('T7', 'Ann');
    expect(rows).toHaveLength(1);
    const c = CASES[field];
    // the data file's taxon makes the info known; the reference's own taxon wins over it
    expect(c.read(mountInfoOf(rows!, 'Data taxon'), modelOf(rows))).toEqual(c.expected);
  });

  it('lists every name once, in snake_case', () => {
    const names = Object.values(REFERENCE_COLUMNS).flat();
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z_]+$/);
  });
});
