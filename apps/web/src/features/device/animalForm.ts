import { BEAST_MEASURES, BIRD_MEASURES, TIME_FORMAT, type MeasureName, type MountInfo } from '@wildtrack/contract';
import type { UploadFile } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { SpeciesForm } from './api';

/** The animal-info form's values and their way to and from the call's MountInfo, kept apart from React. */

export const MEASURES: Record<SpeciesForm, readonly MeasureName[]> = { bird: BIRD_MEASURES, beast: BEAST_MEASURES, other: [] };

export interface AnimalFormValues {
  Species: string;
  ScientificName: string;
  Sex: number;
  Age: number;
  Weight: number | null;
  CaptureTime: Dayjs | null;
  MountTime: Dayjs | null;
  ReleaseTime: Dayjs | null;
  ReleaseLon: number | null;
  ReleaseLat: number | null;
  ReleaseSite: string;
  Images: UploadFile[];
  AdditionalInfo: { Name: string; Value: string }[];
  Measurements: Partial<Record<MeasureName, number | null>>;
}

/** Times travel as text in the user's zone; the picker shows that wall-clock time as it is. */
const toDayjs = (text: string): Dayjs | null => (text ? dayjs(text, TIME_FORMAT) : null);
const toText = (value: Dayjs | null | undefined): string => (value && value.isValid() ? value.format(TIME_FORMAT) : '');

export function toFormValues(info: MountInfo, measures: readonly MeasureName[]): AnimalFormValues {
  return {
    ...info.AnimalInfo,
    CaptureTime: toDayjs(info.WorkInfo.CaptureTime),
    MountTime: toDayjs(info.WorkInfo.MountTime),
    ReleaseTime: toDayjs(info.WorkInfo.ReleaseTime),
    ReleaseLon: info.WorkInfo.ReleaseLon,
    ReleaseLat: info.WorkInfo.ReleaseLat,
    ReleaseSite: info.WorkInfo.ReleaseSite,
    Images: info.WorkInfo.Images.map((url, i) => ({ uid: `saved-${i}`, name: url.split('/').pop() ?? url, status: 'done', url })),
    AdditionalInfo: info.AdditionalInfo.map((f) => ({ ...f })),
    Measurements: Object.fromEntries(measures.map((m) => [m, info.Measurements[m] ?? null])),
  };
}

export function toMountInfo(imei: string, v: AnimalFormValues, measures: readonly MeasureName[]): MountInfo {
  return {
    IMEI: imei,
    AnimalInfo: { Species: v.Species ?? '', ScientificName: v.ScientificName ?? '', Sex: v.Sex ?? 0, Age: v.Age ?? 0, Weight: v.Weight ?? null },
    WorkInfo: {
      CaptureTime: toText(v.CaptureTime),
      MountTime: toText(v.MountTime),
      ReleaseTime: toText(v.ReleaseTime),
      ReleaseLon: v.ReleaseLon ?? null,
      ReleaseLat: v.ReleaseLat ?? null,
      ReleaseSite: v.ReleaseSite ?? '',
      Images: (v.Images ?? [])
        .filter((f) => f.status === 'done')
        .map((f) => f.url ?? (f.response as { Url?: string } | undefined)?.Url ?? '')
        .filter(Boolean),
    },
    AdditionalInfo: (v.AdditionalInfo ?? []).map((f) => ({ Name: (f?.Name ?? '').trim(), Value: (f?.Value ?? '').trim() })),
    Measurements: Object.fromEntries(measures.map((m) => [m, v.Measurements?.[m] ?? null])),
  };
}

