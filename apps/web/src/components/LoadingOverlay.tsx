import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLoadingCount } from '../lib/loading';

/** The global overlay of §8, open while any request that asked for it runs. Short calls never flash it. */
export function LoadingOverlay() {
  const count = useLoadingCount();
  const { t } = useTranslation();
  return <Spin fullscreen spinning={count > 0} delay={250} description={t('common.loading')} />;
}
