import { type Lang, SENSOR_KINDS, sensorKindOfFlag, type SensorKindName } from '@wildtrack/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The scalar sensor kinds' texts come from the contract's kinds table (packages/contract/src/sensor-kinds.ts:
 * the kind's name as a title and inside a sentence, each value's label and unit), so a kind added there is
 * named on every screen without a key in en-US.json and zh-CN.json. The other kinds and flags (positions,
 * acceleration, events; GNSS, image, video, audio) keep their catalogue keys.
 */

/** The contract language of an i18next language tag ('zh-CN' → 'zh'). */
export function langOf(language: string | undefined): Lang {
  return language?.startsWith('zh') ? 'zh' : 'en';
}

export function isSensorKind(kind: string): kind is SensorKindName {
  return Object.prototype.hasOwnProperty.call(SENSOR_KINDS, kind);
}

export interface KindTexts {
  /** The language the texts are in (i18next's now). */
  lang: Lang;
  /**
   * A data kind's name: a scalar kind's from its row (`label` as a title, `noun` inside a sentence), any
   * other kind's the catalogue's `<otherKey>.<kind>` (e.g. 'download.kind' for 'fix').
   */
  kind: (kind: string, otherKey: string, form?: 'label' | 'noun') => string;
  /** A sensor flag's name: a scalar kind's flag from its row, any other's the catalogue's `<otherKey>.<flag>`. */
  flag: (flag: string, otherKey: string) => string;
}

export function useKindTexts(): KindTexts {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  return useMemo(
    () => ({
      lang,
      kind: (kind, otherKey, form = 'label') => (isSensorKind(kind) ? SENSOR_KINDS[kind][form][lang] : t(`${otherKey}.${kind}`)),
      flag: (flag, otherKey) => {
        const kind = sensorKindOfFlag(flag);
        return kind ? SENSOR_KINDS[kind].label[lang] : t(`${otherKey}.${flag}`);
      },
    }),
    [t, lang],
  );
}
