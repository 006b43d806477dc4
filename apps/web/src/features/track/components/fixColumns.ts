import { useCallback, useState } from 'react';
import { z } from 'zod';
import { useSession } from '../../../lib/session';
import { readStoredJson, writeStoredJson } from '../../../browser/storage';

/**
 * The fixes table's columns: which are shown, in what order, how wide, and each one's fixed decimals.
 * The table opens with a compact set that fits beside the map at 1280 px; the user's choice (shown
 * columns and widths dragged) is kept per user in the browser.
 */

/** Every column of §3 Fix the table can show, in the table's order. */
export const FIX_COLUMNS = [
  'PickTime', 'Latitude', 'Longitude', 'Altitude', 'Speed', 'Course', 'HDOP', 'VDOP', 'Satellites', 'PrecisionGrade', 'Validity',
  'Temperature', 'Exercise', 'Voltage', 'Channel', 'TransmissionTime',
] as const;
export type FixColumn = (typeof FIX_COLUMNS)[number];

/** The compact set the table opens with: when, where, how fast and how good a fix is. */
export const DEFAULT_FIX_COLUMNS: readonly FixColumn[] = ['PickTime', 'Latitude', 'Longitude', 'Speed', 'HDOP', 'Satellites', 'PrecisionGrade', 'Validity'];

/** Fix time names a row: it is always shown. */
export const FIXED_FIX_COLUMN: FixColumn = 'PickTime';

/** Each column's width (px) until the user drags it. */
export const COLUMN_WIDTH: Record<FixColumn, number> = {
  PickTime: 150, Latitude: 88, Longitude: 96, Altitude: 72, Speed: 64, Course: 64, HDOP: 60, VDOP: 60, Satellites: 56, PrecisionGrade: 60,
  Validity: 56, Temperature: 84, Exercise: 72, Voltage: 68, Channel: 64, TransmissionTime: 150,
};

/** A dragged column is kept between these widths. */
export const MIN_COLUMN_WIDTH = 48;
export const MAX_COLUMN_WIDTH = 480;

/** Fixed decimals of each numeric column (aligned to the right). */
export const DECIMALS: Partial<Record<FixColumn, number>> = {
  Latitude: 6, Longitude: 6, Altitude: 0, Speed: 1, Course: 0, HDOP: 1, VDOP: 1, Satellites: 0, Temperature: 1, Exercise: 0, Voltage: 2, Channel: 0,
};

const Stored = z.object({
  columns: z.array(z.enum(FIX_COLUMNS)).max(FIX_COLUMNS.length),
  widths: z.record(z.string(), z.number().int().min(MIN_COLUMN_WIDTH).max(MAX_COLUMN_WIDTH)),
});

export interface ColumnChoice {
  /** Shown columns in the table's order, Fix time first. */
  columns: FixColumn[];
  widths: Partial<Record<FixColumn, number>>;
}

/** A choice as the table uses it: known columns only, in the table's order, Fix time always there. */
export function normaliseChoice(choice: { columns: readonly string[]; widths: Record<string, number> }): ColumnChoice {
  const shown = new Set(choice.columns);
  shown.add(FIXED_FIX_COLUMN);
  const widths: Partial<Record<FixColumn, number>> = {};
  for (const column of FIX_COLUMNS) {
    const w = choice.widths[column];
    if (typeof w === 'number') widths[column] = Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, w)));
  }
  return { columns: FIX_COLUMNS.filter((c) => shown.has(c)), widths };
}

export const DEFAULT_CHOICE: ColumnChoice = { columns: [...DEFAULT_FIX_COLUMNS], widths: {} };

/** The browser key of a user's choice (another account on the same browser has its own). */
export const columnsKey = (user: string): string => `wildtrack_fix_columns:${user}`;

export function readColumnChoice(user: string): ColumnChoice {
  const stored = readStoredJson('local', columnsKey(user), Stored);
  return stored ? normaliseChoice(stored) : DEFAULT_CHOICE;
}

/** The width a column is drawn at. */
export function widthOf(choice: ColumnChoice, column: FixColumn): number {
  return choice.widths[column] ?? COLUMN_WIDTH[column];
}

/** The table's width with these columns (and the checkbox column when fixes can be marked). */
export function tableWidth(choice: ColumnChoice, checkboxes: boolean): number {
  return choice.columns.reduce((sum, c) => sum + widthOf(choice, c), checkboxes ? 32 : 0);
}

/** The signed-in user's column choice, read once and written on every change. */
export function useColumnChoice(): [ColumnChoice, (next: ColumnChoice) => void] {
  const user = useSession().user.userName;
  const [state, setState] = useState(() => ({ user, choice: readColumnChoice(user) }));
  let current = state;
  if (state.user !== user) {
    current = { user, choice: readColumnChoice(user) };
    setState(current);
  }
  const update = useCallback(
    (next: ColumnChoice) => {
      const choice = normaliseChoice(next);
      setState({ user, choice });
      writeStoredJson('local', columnsKey(user), choice);
    },
    [user],
  );
  return [current.choice, update];
}
