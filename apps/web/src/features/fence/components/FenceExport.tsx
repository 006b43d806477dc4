import { DownloadOutlined } from '@ant-design/icons';
import { FENCE_EXPORT_FILE_TYPES, type FenceExportFileType } from '@wildtrack/contract';
import { App, Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useZone } from '../../../lib/session';
import { exportFences } from '../api';

/**
 * Exports the fences in the list as GeoJSON or KML (issue 29): for GIS tools and Google Earth; a circle is
 * written as a polygon with its centre and radius noted. A refusal is shown by the client as any call's.
 */
export function FenceExport({ disabled }: { disabled?: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const zone = useZone();
  const [busy, setBusy] = useState(false);
  const run = async (fileType: FenceExportFileType) => {
    setBusy(true);
    try {
      const file = await exportFences(fileType, zone);
      void message.success(t('fence.export.done', { file }));
    } catch {
      // shown by the client already
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dropdown
      disabled={disabled || busy}
      trigger={['click']}
      menu={{ items: FENCE_EXPORT_FILE_TYPES.map((type) => ({ key: type, label: <span data-testid={`fence-export-${type}`}>{t(`fence.export.type.${type}`)}</span> })), onClick: ({ key }) => void run(key as FenceExportFileType) }}
    >
      <Button icon={<DownloadOutlined />} loading={busy} disabled={disabled} title={t('fence.export.hint')} data-testid="fence-export">
        {t('fence.export.button')}
      </Button>
    </Dropdown>
  );
}
