import { parseTime } from '@wildtrack/contract';
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { customRange, type PositionRange } from '../../../lib/positionSelection';
import { useZone } from '../../../lib/session';
import { useFixSpan } from '../api';

interface Props {
  imei: string;
  /** Sets the range shown (the user's choice). */
  onRange: (range: PositionRange) => void;
}

/**
 * A range that holds none of the device's fixes (the common case after an import, issue 28): says when
 * its data runs, first to last fix in the user's zone, and offers to show that range.
 */
export function JumpToData({ imei, onRange }: Props) {
  const { t } = useTranslation();
  const zone = useZone();
  const span = useFixSpan(imei, true);
  const data = span.data;
  const first = data ? parseTime(data.FirstTime, zone) : null;
  const last = data ? parseTime(data.LastTime, zone) : null;
  return (
    <div className="wt-track-empty" data-testid="track-empty">
      <div>{t(data === null ? 'track.noFixesEver' : 'track.noFixes')}</div>
      {data && first !== null && last !== null ? (
        <>
          <Typography.Text type="secondary" data-testid="track-data-span">
            {t('track.dataSpan', { first: data.FirstTime, last: data.LastTime })}
          </Typography.Text>
          <div>
            {/* the last second in full: a fix later in it is in the range */}
            <Button type="primary" size="small" data-testid="jump-to-data" onClick={() => onRange(customRange(first, last + 999))}>
              {t('track.jumpToData')}
            </Button>
          </div>
        </>
      ) : null}
    </div>
  );
}
