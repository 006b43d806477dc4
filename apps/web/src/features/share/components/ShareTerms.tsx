import { Checkbox, DatePicker, Space, Button } from 'antd';
import { formatTime, TIME_FORMAT } from '@wildtrack/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

/** The rights a share may give (§6: never EditFix nor ShareDevice). */
export const SHARE_RIGHTS = ['DownloadData', 'RemoteInstr', 'EditDevice'] as const;
export type ShareRight = (typeof SHARE_RIGHTS)[number];

/** A share's window as wall-clock texts in the user's zone, and its rights. */
export interface Terms {
  window: [string, string] | null;
  rights: ShareRight[];
}

/** The body fields of a window and rights. */
export function termsBody(terms: Terms & { window: [string, string] }, timeZone: string) {
  return {
    effectiveTime: terms.window[0],
    failureTime: terms.window[1],
    canEditDevice: terms.rights.includes('EditDevice'),
    canRemoteInstr: terms.rights.includes('RemoteInstr'),
    canDownloadData: terms.rights.includes('DownloadData'),
    timeZone,
  };
}

/** Quick windows from now, in days. */
const QUICK_DAYS = [1, 7, 30] as const;

/** From now for `days` days, as wall-clock texts in the zone. */
export function windowFromNow(days: number, zone: string, now = Date.now()): [string, string] {
  return [formatTime(now, zone), formatTime(now + days * 86_400_000, zone)];
}

/** The window (a range picker with 1 / 7 / 30 days from now) and the rights' checkboxes. */
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
