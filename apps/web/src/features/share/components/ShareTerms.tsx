import { Checkbox, DatePicker, Radio, Space, Button } from 'antd';
import { formatTime, type ShareDataPeriod, type ShareRecord, TIME_FORMAT } from '@wildtrack/contract';
import type { TFunction } from 'i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

/** The rights a share may give (§6: never EditFix nor ShareDevice). */
export const SHARE_RIGHTS = ['DownloadData', 'RemoteInstr', 'EditDevice'] as const;
export type ShareRight = (typeof SHARE_RIGHTS)[number];

/** What of the device's data the recipient reads (issue 28): all history, from a time (wall-clock text in the user's zone), or only the window. */
export interface DataTerms {
  period: ShareDataPeriod;
  from: string | null;
}

/** A share's window as wall-clock texts in the user's zone, its rights and its data period. */
export interface Terms {
  window: [string, string] | null;
  rights: ShareRight[];
  data: DataTerms;
}

/** A new share's terms: no window yet, the download right, all history (the recipient sees what the device has, not only what comes). */
export const NEW_TERMS: Terms = { window: null, rights: ['DownloadData'], data: { period: 'ALL', from: null } };

/** A share's terms as its record states them. */
export function termsOf(s: ShareRecord, rights: ShareRight[]): Terms {
  return { window: [s.EffectiveTime, s.FailureTime], rights, data: { period: s.DataPeriod, from: s.DataFrom || null } };
}

/** The body fields of a window, rights and data period. */
export function termsBody(terms: Terms & { window: [string, string] }, timeZone: string) {
  return {
    effectiveTime: terms.window[0],
    failureTime: terms.window[1],
    canEditDevice: terms.rights.includes('EditDevice'),
    canRemoteInstr: terms.rights.includes('RemoteInstr'),
    canDownloadData: terms.rights.includes('DownloadData'),
    dataPeriod: terms.data.period,
    ...(terms.data.period === 'FROM' && terms.data.from ? { dataFrom: terms.data.from } : {}),
    timeZone,
  };
}

/** Whether the data period is complete (FROM names its time). */
export const dataTermsComplete = (d: DataTerms): boolean => d.period !== 'FROM' || d.from !== null;

/** A time text as words: its day alone when it is the day's start. */
const dayOrTime = (text: string) => (text.endsWith(' 00:00:00') ? text.slice(0, 10) : text);

/** What a share grants of the data, in words: "Data: all history", "Data: from 2026-11-01", "Data: same as the access window". */
export function dataPeriodWords(t: TFunction, period: ShareDataPeriod, from: string | null): string {
  if (period === 'FROM' && from) return t('share.data.wordsFrom', { from: dayOrTime(from) });
  return t(period === 'WINDOW' ? 'share.data.wordsWindow' : 'share.data.wordsAll');
}

/** Past presets of FROM, in days before now. */
const PAST_DAYS = [7, 30, 90] as const;

/** Quick windows from now, in days. */
const QUICK_DAYS = [1, 7, 30] as const;

/** From now for `days` days, as wall-clock texts in the zone. */
export function windowFromNow(days: number, zone: string, now = Date.now()): [string, string] {
  return [formatTime(now, zone), formatTime(now + days * 86_400_000, zone)];
}

/** `days` before now, as a wall-clock text in the zone (a FROM data period's past preset). */
export function fromDaysAgo(days: number, zone: string, now = Date.now()): string {
  return formatTime(now - days * 86_400_000, zone);
}

/** The window (a range picker with 1 / 7 / 30 days from now), the data period (with past presets) and the rights' checkboxes. */
export function ShareTermsFields({ value, onChange, zone }: { value: Terms; onChange: (t: Terms) => void; zone: string }) {
  const { t } = useTranslation();
  const picked: [Dayjs, Dayjs] | null = value.window ? [dayjs(value.window[0], TIME_FORMAT), dayjs(value.window[1], TIME_FORMAT)] : null;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <div>
        <div className="wt-share-label">{t('share.window')}</div>
        <Space wrap>
          <DatePicker.RangePicker
            data-testid="share-window"
            aria-label={t('share.window')}
            showTime={{ format: 'HH:mm:ss' }}
            format={TIME_FORMAT}
            value={picked}
            placeholder={[t('share.effectiveTime'), t('share.failureTime')]}
            onChange={(dates) => {
              const [a, b] = dates ?? [];
              onChange({ ...value, window: a && b ? [a.format(TIME_FORMAT), b.format(TIME_FORMAT)] : null });
            }}
          />
          {QUICK_DAYS.map((days) => (
            <Button key={days} size="small" data-testid={`share-days-${days}`} onClick={() => onChange({ ...value, window: windowFromNow(days, zone) })}>
              {t('share.forDays', { count: days })}
            </Button>
          ))}
        </Space>
      </div>
      <div data-testid="share-data">
        <div className="wt-share-label">{t('share.data.label')}</div>
        <Space direction="vertical">
          <Radio.Group
            data-testid="share-data-period"
            aria-label={t('share.data.label')}
            value={value.data.period}
            onChange={(e) => onChange({ ...value, data: { ...value.data, period: e.target.value as ShareDataPeriod } })}
            options={(['ALL', 'FROM', 'WINDOW'] as const).map((p) => ({ value: p, label: t(`share.data.${p}`) }))}
          />
          {value.data.period === 'FROM' && (
            <Space wrap>
              <DatePicker
                data-testid="share-data-from"
                aria-label={t('share.data.FROM')}
                format="YYYY-MM-DD"
                value={value.data.from ? dayjs(value.data.from, TIME_FORMAT) : null}
                onChange={(d) => onChange({ ...value, data: { period: 'FROM', from: d ? d.startOf('day').format(TIME_FORMAT) : null } })}
              />
              {PAST_DAYS.map((days) => (
                <Button key={days} size="small" data-testid={`share-data-last-${days}`} onClick={() => onChange({ ...value, data: { period: 'FROM', from: fromDaysAgo(days, zone) } })}>
                  {t('share.data.lastDays', { count: days })}
                </Button>
              ))}
            </Space>
          )}
          <span data-testid="share-data-words" className="wt-share-hint">
            {dataPeriodWords(t, value.data.period, value.data.from)}
          </span>
        </Space>
      </div>
      <div>
        <div className="wt-share-label">{t('share.rights')}</div>
        <Checkbox.Group
          data-testid="share-rights"
          value={value.rights}
          onChange={(rights) => onChange({ ...value, rights: rights as ShareRight[] })}
          options={SHARE_RIGHTS.map((r) => ({ value: r, label: t(`share.right.${r}`) }))}
        />
      </div>
    </Space>
  );
}
