import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** A link (or another screen) named devices this viewer cannot see: said plainly, above what is shown instead. */
export function UnknownDeviceNotice({ imeis, onClose }: { imeis: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  if (imeis.length === 0) return null;
  return (
    <Alert
      className="wt-context-notice"
      type="warning"
      showIcon
      closable={{ onClose }}
      data-testid="unknown-device"
      title={t('context.unknownDevice', { count: imeis.length, imeis: imeis.join(', ') })}
    />
  );
}
