import { Alert, Empty, Skeleton, type TablePaginationConfig } from 'antd';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@wildtrack/contract';
import type { TFunction } from 'i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

/** What a media list shows before it has rows: loading, the error with Retry, or empty; null once there are rows. */
export function ListState({ query, empty }: { query: UseQueryResult<{ Total: number }>; empty: string }) {
  const { t } = useTranslation();
  if (query.isPending) return <Skeleton active paragraph={{ rows: 6 }} data-testid="media-loading" />;
  if (query.isError && !query.data) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="media-error"
        title={t('media.loadError')}
        description={query.error.message}
        action={
          <a role="button" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </a>
        }
      />
    );
  }
  if (query.data && query.data.Total === 0) return <Empty className="wt-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} data-testid="media-empty" />;
  return null;
}

/** Said above a list the server cut at MEDIA_ALL_MAX: only the newest are here. */
export function CapNotice({ shown, total }: { shown: number; total: number }) {
  const { t } = useTranslation();
  return shown < total ? <Alert type="info" showIcon className="wt-media-cap" title={t('media.capped', { shown, total })} /> : null;
}

/** What every media panel gets: the devices (offering its kind), their names and the range. */
export interface MediaPanelProps {
  imeis: readonly string[];
  names: ReadonlyMap<string, string>;
  start: string;
  end: string;
}

/** Bytes as people read them. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A position as text, or null when the fix has none. */
export function positionText(lon: number | null, lat: number | null): string | null {
  return lon === null || lat === null ? null : `${lon.toFixed(5)}, ${lat.toFixed(5)}`;
}

/** The pager of a media table (its rows all here): §9's sizes, a total and a quick jumper (§2.5). */
export function listPager(t: TFunction): TablePaginationConfig {
  return {
    defaultPageSize: DEFAULT_PAGE_SIZE,
    pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
    showSizeChanger: true,
    showQuickJumper: true,
    size: 'small',
    showTotal: (n) => t('media.total', { count: n }),
  };
}
