import fs from 'node:fs';
import { parse } from 'csv-parse';
import { Age, Sex } from '@wildtrack/contract';
import { isEmpty, parseTimestamp, toNumber } from './values.js';
import { MovebankFormatError } from './errors.js';
import { REFERENCE_COLUMNS as R, referenceName } from './columns.js';

export type ReferenceRow = Record<string, string>;

/**
 * Movebank reference data ("tag / individual / deployment"), one row per deployment. The study page's
 * download writes snake_case names (tag_local_identifier); the older CSV writes hyphens
 * (tag-id, animal-id). Names are normalised to snake_case; the values are kept as written.
 */
function pick(row: ReferenceRow, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = row[n];
    if (!isEmpty(v)) return v;
  }
  return undefined;
}

export interface Reference {
  /** Deployments of this tag on this individual (by both ids, else by the one the data has). */
  find(tag: string, individual: string): ReferenceRow[] | undefined;
}

/** Reads the whole reference file: it is small (a row per deployment). */
export async function readReference(file: string): Promise<Reference> {
  if (!fs.existsSync(file)) throw new MovebankFormatError(`${file}: no such reference file`);
  const out = new Map<string, ReferenceRow[]>();
  const add = (key: string, row: ReferenceRow) => {
    const list = out.get(key);
    if (list) list.push(row);
    else out.set(key, [row]);
  };
  const parser = fs.createReadStream(file).pipe(
    parse({ columns: (h: string[]) => h.map(referenceName), bom: true, skip_empty_lines: true, relax_column_count: true }),
  );
  let checked = false;
  for await (const raw of parser as AsyncIterable<Record<string, string>>) {
    if (!checked) {
      checked = true;
      const names = Object.keys(raw);
      const hasTag = R.tag.some((n) => names.includes(n));
      const hasAnimal = R.individual.some((n) => names.includes(n));
      if (!hasTag && !hasAnimal) {
        throw new MovebankFormatError(`${file}: not Movebank reference data: no tag_local_identifier or individual_local_identifier column`);
      }
    }
    const row: ReferenceRow = {};
    for (const [k, v] of Object.entries(raw)) if (!isEmpty(v)) row[k] = v;
    const tag = pick(row, R.tag) ?? '';
    const individual = pick(row, R.individual) ?? '';
    add(`p\u0000${tag}\u0000${individual}`, row);
    if (individual) add(`i\u0000${individual}`, row);
    if (tag) add(`t\u0000${tag}`, row);
  }
  return {
    find(tag, individual) {
      if (tag && individual) return out.get(`p\u0000${tag}\u0000${individual}`);
      return individual ? out.get(`i\u0000${individual}`) : out.get(`t\u0000${tag}`);
    },
  };
}

const SEX: Record<string, number> = { m: Sex.Male, male: Sex.Male, f: Sex.Female, female: Sex.Female };
// Movebank's life stages are free text; these are the usual words, mapped onto the spec's four ages.
const AGE: Record<string, number> = {
  adult: Age.Adult,
  breeder: Age.Adult,
  subadult: Age.Subadult,
  'sub-adult': Age.Subadult,
  juvenile: Age.Subadult,
  immature: Age.Subadult,
  yearling: Age.Subadult,
  'first-year': Age.Subadult,
  'second-year': Age.Subadult,
  chick: Age.Larva,
  nestling: Age.Larva,
  fledgling: Age.Larva,
  hatchling: Age.Larva,
  pup: Age.Larva,
  calf: Age.Larva,
  cub: Age.Larva,
  larva: Age.Larva,
};

export interface MountInfoDoc {
  Species: string | null;
  ScientificName: string | null;
  Sex: number;
  Age: number;
  Weight: number | null;
  MountTime: number | null;
  AdditionalInfo: Record<string, string>;
}

function massKg(grams: string | undefined): number | null {
  const g = grams === undefined ? undefined : toNumber(grams);
  return g === undefined ? null : g / 1000;
}

/** §3 MountInfo from the first deployment; null when the reference says nothing about the animal. */
export function mountInfoOf(rows: ReferenceRow[], taxon: string | undefined): MountInfoDoc | null {
  const r = rows[0];
  if (!r) return null;
  const scientific = pick(r, R.taxon) ?? taxon ?? null;
  const sexText = pick(r, R.sex)?.trim().toLowerCase();
  const stage = pick(r, R.lifeStage)?.trim().toLowerCase();
  const mass = pick(r, R.mass);
  const deployOn = pick(r, R.deployOn);
  const additional: Record<string, string> = {};
  for (const [label, names] of [
    ['RingId', R.ringId],
    ['NickName', R.nickName],
    ['StudySite', R.studySite],
    ['AttachmentType', R.attachmentType],
    ['DeploymentId', R.deploymentId],
  ] as const) {
    const v = pick(r, names);
    if (v !== undefined) additional[label] = v;
  }
  const doc: MountInfoDoc = {
    // Movebank carries no common name; the species is named by its taxon.
    Species: scientific,
    ScientificName: scientific,
    Sex: (sexText ? SEX[sexText] : undefined) ?? Sex.Unknown,
    Age: (stage ? AGE[stage] : undefined) ?? Age.Unknown,
    // Movebank's animal_mass is in grams; an animal's weight is kept (and shown) in kilograms
    Weight: massKg(mass),
    MountTime: deployOn === undefined ? null : (parseTimestamp(deployOn) ?? null),
    AdditionalInfo: additional,
  };
  const known = doc.Species !== null || doc.Sex !== Sex.Unknown || doc.Age !== Age.Unknown || doc.Weight !== null || doc.MountTime !== null;
  return known ? doc : null;
}

export function modelOf(rows: ReferenceRow[] | undefined): string | undefined {
  const r = rows?.[0];
  return r && pick(r, R.model);
}
