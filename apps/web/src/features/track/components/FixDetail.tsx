import { CloseOutlined } from '@ant-design/icons';
import type { Fix, FixAnnotations } from '@wildtrack/contract';
import { Button, Descriptions, Spin, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { useFix } from '../api';
import { coordinate, num, Validity } from './FixTable';

interface Props {
  imei: string;
  /** The chosen fix. */
  id: string;
  /** Its row of the table when the page shows it (an average stands for its run there). */
  row: Fix | undefined;
  onClose: () => void;
}

/**
 * A fix's annotations: the columns of an imported file that no field of a fix holds (a Movebank export's
 * Env-DATA annotations such as wind or chlorophyll, e-obs columns), under the file's own names and with
 * its values as written. Nothing when the fix has none.
 */
export function FixAnnotationList({ annotations }: { annotations: FixAnnotations | undefined }) {
  const { t } = useTranslation();
  const entries = Object.entries(annotations ?? {});
  if (entries.length === 0) return null;
  return (
    <section className="wt-fix-annotations" data-testid="fix-annotations" data-count={entries.length}>
      <Typography.Title level={5} className="wt-fix-detail-section">
        {t('track.detail.annotations')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="wt-fix-detail-help">
        {t('track.detail.annotationsHelp')}
      </Typography.Paragraph>
      <Descriptions
        size="small"
        column={1}
        bordered
        items={entries.map(([name, value]) => ({
          key: name,
          label: (
            <span className="wt-mono wt-fix-annotation-name" data-annotation={name}>
              {name}
            </span>
          ),
          children: <span className="wt-mono">{value === null || value === '' ? '—' : String(value)}</span>,
        }))}
      />
    </section>
  );
}

/**
 * The chosen fix, every value in one column (the table beside is wide), and what only a single fix's
 * detail carries: its annotations. An average's run has no annotations of its own, so an averaged row
 * shows its averaged values without them.
 */
export function FixDetail({ imei, id, row, onClose }: Props) {
  const { t } = useTranslation();
  const detail = useFix(imei, id);
  const fix = row ?? detail.data;
  const averaged = (row?.GroupSize ?? 1) > 1;

  let body: React.ReactNode;
  if (!fix && detail.isError) body = <ErrorState title={t('track.detail.loadError')} error={detail.error} onRetry={() => void detail.refetch()} />;
  else if (!fix) body = <Spin className="wt-fix-detail-loading" />;
  else {
    body = (
      <>
        <Descriptions
          size="small"
          column={2}
          items={[
            { key: 'position', label: t('track.converted.position'), span: 2, children: <span className="wt-mono">{coordinate(fix.Longitude, fix.LongitudeTag)}, {coordinate(fix.Latitude, fix.LatitudeTag)}</span> },
            { key: 'alt', label: `${t('track.col.altitude')} (m)`, children: num(fix.Altitude, 1) },
            { key: 'speed', label: `${t('track.col.speed')} (km/h)`, children: num(fix.Speed, 1) },
            { key: 'course', label: `${t('track.col.course')} (°)`, children: num(fix.Course, 0) },
            { key: 'temperature', label: `${t('track.col.temperature')} (°C)`, children: num(fix.Temperature, 1) },
            { key: 'voltage', label: `${t('track.col.voltage')} (V)`, children: num(fix.Voltage, 2) },
            { key: 'satellites', label: t('track.col.satellites'), children: num(fix.Satellites, 0) },
            { key: 'hdop', label: 'HDOP', children: num(fix.HDOP, 1) },
            { key: 'vdop', label: 'VDOP', children: num(fix.VDOP, 1) },
            { key: 'validity', label: t('track.col.validity'), span: 2, children: <Validity fix={fix} /> },
          ]}
        />
        {averaged ? null : <FixAnnotationList annotations={detail.data?.Annotations} />}
      </>
    );
  }

  return (
    <div className="wt-fix-detail" data-testid="fix-detail" data-id={id} data-state={detail.isPending ? 'loading' : detail.isError ? 'error' : 'ready'}>
      <div className="wt-fix-detail-head">
        <Typography.Text strong>{t('track.detail.title')}</Typography.Text>
        <span className="wt-mono">{fix?.PickTime ?? ''}</span>
        {averaged ? (
          <Tag className="wt-tag-inline" color="purple">
            {t('track.average', { count: row!.GroupSize })}
          </Tag>
        ) : null}
        <Tooltip title={t('common.close')}>
          <Button size="small" type="text" icon={<CloseOutlined />} aria-label={t('common.close')} data-testid="fix-detail-close" onClick={onClose} className="wt-fix-detail-close" />
        </Tooltip>
      </div>
      <div className="wt-fix-detail-body">{body}</div>
    </div>
  );
}
