import { Card, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import type { useDeviceTree } from '../api';

/**
 * What a page built on the device tree (/device, /track) shows while the tree loads or when it can't be
 * read; null once the tree is there.
 */
export function TreeLoadState({ tree }: { tree: ReturnType<typeof useDeviceTree> }) {
  const { t } = useTranslation();
  if (tree.isPending) {
    return (
      <Card className="wt-page-card" variant="borderless">
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  }
  if (tree.isError) {
    return (
      <Card className="wt-page-card" variant="borderless">
        <ErrorState title={t('tree.loadError')} error={tree.error} onRetry={() => void tree.refetch()} />
      </Card>
    );
  }
  return null;
}
