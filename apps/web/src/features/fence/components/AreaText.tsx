import { useTranslation } from 'react-i18next';
import { areaValue } from '../geometry';

/** An area in m², ha or km² as its size reads best, with the number written the interface language's way. */
export function useAreaText(): (m2: number) => string {
  const { t, i18n } = useTranslation();
  const locale = i18n.language.startsWith('zh') ? 'zh-CN' : 'en-US';
  return (m2: number) => {
    const { value, unit, digits } = areaValue(m2);
    return t(`fence.area.${unit}`, { value: new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value) });
  };
}
