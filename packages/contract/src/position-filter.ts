import { z } from 'zod';
import { PRECISION_GRADES } from './constants.js';
import { freeText } from './validation.js';

/**
 * The position filters (§5, §9) and the fix table's sort fields: rules without a call. Apart from calls/fix.ts
 * so that a screen keeping a table's state in its link (lib/contextUrl.ts, on /login's first load) brings no
 * fix call's schema with it: a defined call stays in the bundle (its registration is a side effect).
 */

/**
 * Precision filter (§5): letters A-E and N; anything else resets the filter to all letters, duplicates
 * are removed. The answer is the normalised letters in A..E, N order.
 */
export function normalisePrecision(input: string | null | undefined): string {
  const letters = (input ?? '').toUpperCase().replace(/[\s,]/g, '');
  if (letters === '' || [...letters].some((c) => !(PRECISION_GRADES as readonly string[]).includes(c))) return PRECISION_GRADES.join('');
  return PRECISION_GRADES.filter((g) => letters.includes(g)).join('');
}

/** HDOP a filter may name: 0 to 99.9 (a receiver's own ceiling). */
export const MAX_HDOP_FILTER = 99.9;
/** Satellites a filter may name: 0 to 64 (every GNSS in view at once stays below it). */
export const MAX_SATELLITES_FILTER = 64;

const hdopBound = z.number().finite().min(0, { error: 'validation.tooSmall' }).max(MAX_HDOP_FILTER, { error: 'validation.tooBig' }).optional();
const satellitesBound = z.number().int({ error: 'validation.invalidValue' }).min(0, { error: 'validation.tooSmall' }).max(MAX_SATELLITES_FILTER, { error: 'validation.tooBig' }).optional();

/**
 * The position filters of §9: each numeric one keeps fixes whose value is greater than it (the spec's
 * operator); its `…Max` twin, when given, keeps values at most that (an upper bound), so a pair keeps
 * lower < value ≤ upper. HDOP and satellites filter the same way.
 */
export const PositionFilterSchema = z.object({
  speed: z.number().finite().optional(),
  speedMax: z.number().finite().optional(),
  altitude: z.number().finite().optional(),
  altitudeMax: z.number().finite().optional(),
  temperature: z.number().finite().optional(),
  temperatureMax: z.number().finite().optional(),
  voltage: z.number().finite().optional(),
  voltageMax: z.number().finite().optional(),
  /** Activity (Exercise). */
  activity: z.number().finite().optional(),
  activityMax: z.number().finite().optional(),
  hdop: hdopBound,
  hdopMax: hdopBound,
  satellites: satellitesBound,
  satellitesMax: satellitesBound,
  /** Precision letters, e.g. 'AB'; normalised by normalisePrecision (N = grades 6 and 7). */
  precision: freeText().max(20, { error: 'validation.tooLong' }).optional(),
  /** Leave out fixes that are not valid (out of range, without position or marked invalid). */
  validOnly: z.boolean().optional(),
});
export type PositionFilter = z.infer<typeof PositionFilterSchema>;

/** The numeric filters that take a lower ("greater than") and an upper ("at most") bound. */
export const BOUNDED_FILTERS = ['speed', 'altitude', 'temperature', 'voltage', 'activity', 'hdop', 'satellites'] as const;
export type BoundedFilter = (typeof BOUNDED_FILTERS)[number];

/**
 * A filter's upper bound must lie above its lower one (lower < value ≤ upper would keep nothing
 * otherwise): refused naming the `…Max` field. Add it with .superRefine(orderedBounds) after the body's
 * last .extend().
 */
export function orderedBounds(body: Partial<Record<BoundedFilter | `${BoundedFilter}Max`, number | undefined>>, ctx: z.RefinementCtx): void {
  for (const name of BOUNDED_FILTERS) {
    const lower = body[name];
    const upper = body[`${name}Max`];
    if (lower !== undefined && upper !== undefined && upper <= lower) {
      ctx.addIssue({ code: 'custom', message: 'validation.bounds', path: [`${name}Max`], input: upper });
    }
  }
}

export const FIX_SORT_FIELDS = ['PickTime', 'Speed', 'Altitude', 'Temperature', 'Exercise', 'Voltage', 'Satellites', 'HDOP', 'PrecisionGrade', 'TransmissionTime'] as const;
