import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/api';

/** An error state for a query: what failed and a retry. The client has already shown the details. */
export function ErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const detail = isApiError(error) ? (error.info.msg ?? error.message) : error instanceof Error ? error.message : '';
  return (
    <Result
      status="warning"
      title={title}
      subTitle={detail}
      extra={
        onRetry ? (
          <Button type="primary" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : null
      }
    />
  );
}
