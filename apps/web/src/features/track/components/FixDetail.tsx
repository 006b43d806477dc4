import { CloseOutlined, InfoCircleOutlined } from '@ant-design/icons';
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
        <Tooltip title={t('track.detail.annotationsHelp')}>
          <InfoCircleOutlined className="wt-fix-detail-help" aria-label={t('track.detail.annotationsHelp')} />
        </Tooltip>
      </Typography.Title>
      <Descriptions
        size="small"
        column={1}
        bordered
        // the names are long (Env-DATA's), the values mostly short numbers: the names get the room
        styles={{ label: { width: '62%' } }}
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
 * The chosen fix under the map: where it is and whether it is valid (the table beside has its other
 * values), and what only a single fix's detail carries: its annotations. An average's run has no
 * annotations of its own, so an averaged row shows none.
 */
export function FixDetail({ imei, id, row, onClose }: Props) {
  const { t } = useTranslation();
  const detail = useFix(imei, id);
  const fix = row ?? detail.data;
  const averaged = (row?.GroupSize ?? 1) > 1;

  let body: React.ReactNode;
  if (!fix && detail.isError) body = <ErrorState title={t('track.detail.loadError')} error={detail.error} onRetry={() => void detail.refetch()} />;
  else if (!fix) body = <Spin size="small" className="wt-fix-detail-loading" />;
  else {
    body = (
      <>
        <div className="wt-fix-detail-summary">
          <span className="wt-mono">
            {coordinate(fix.Longitude, fix.LongitudeTag)}, {coordinate(fix.Latitude, fix.LatitudeTag)}
          </span>
          {fix.Altitude === null ? null : <span className="wt-mono">{num(fix.Altitude, 1)} m</span>}
          <Validity fix={fix} />
        </div>
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
