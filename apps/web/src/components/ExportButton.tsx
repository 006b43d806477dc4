import { DownloadOutlined } from '@ant-design/icons';
import { EXPORT_FILE_TYPES, ExportData, type ExportFileType, type ExportKind, fileTypeCarries, formatTime, GEODATA_FILE_TYPES } from '@wildtrack/contract';
import { App, Button, Dropdown, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKindTexts } from '../i18n/sensor-kinds';
import { download } from '../lib/api';
import { useZone } from '../lib/session';

/** How long the export's confirmation stays on screen (§9: 3000 ms). */
export const EXPORT_CONFIRMATION_MS = 3000;
const YEAR_MS = 365 * 86_400_000;

interface Props {
  /** The device whose records are exported; none: the button asks for one (§5 Export). */
  imei: string | undefined;
  /** The device's name in the confirmation. */
  name?: string;
  kind: ExportKind;
  /** The range as the view shows it, time texts in the user's zone; none: the last year up to now. */
  start?: string | undefined;
  end?: string | undefined;
  /** Whether the user holds DownloadData on the device (§6); unknown (undefined) leaves it to the server. */
  canDownload?: boolean;
}

/**
 * The Export button of a data view (§2.5): XLS (written as .xlsx, no 65,536-row limit), CSV, Movebank
 * CSV for positions and acceleration, and GeoJSON, GPX and KML for positions. Disabled with the download-permission tooltip without DownloadData,
 * and with a hint without a device. A choice is confirmed first; the confirmation of the export stays
 * EXPORT_CONFIRMATION_MS; the file downloads as a blob under the server's name, and a refusal (a non-file
 * reply) shows the reply's message (§8) as the client shows any call's.
 */
export function ExportButton({ imei, name, kind, start, end, canDownload }: Props) {
  const { t } = useTranslation();
  const texts = useKindTexts();
  const { modal, message } = App.useApp();
  const zone = useZone();
  const [busy, setBusy] = useState(false);
  const blocked = canDownload === false ? t('export.noPermission') : !imei ? t('export.chooseDevice') : null;
  const types = EXPORT_FILE_TYPES.filter((type) => fileTypeCarries(type, kind));

  const run = async (fileType: ExportFileType, range: { start: string; end: string }) => {
    setBusy(true);
    void message.info({ content: t('export.started'), duration: EXPORT_CONFIRMATION_MS / 1000, key: 'export' });
    try {
      const file = await download(ExportData, { imei: imei!, kind, fileType, startTime: range.start, endTime: range.end, timeZone: zone }, { loading: false });
      void message.success({ content: t('export.done', { file }), duration: EXPORT_CONFIRMATION_MS / 1000, key: 'export' });
    } catch {
      // The client has shown the refusal (a non-file reply's Msg, §8) or the transport error already.
      message.destroy('export');
    } finally {
      setBusy(false);
    }
  };

  const confirm = (fileType: ExportFileType) => {
    const now = Date.now();
    const range = { start: start ?? formatTime(now - YEAR_MS, zone), end: end ?? formatTime(now, zone) };
    modal.confirm({
      title: t('export.confirmTitle'),
      content: (
        <div data-testid="export-confirm">
          <p>{t('export.confirm', { device: name || imei, kind: texts.kind(kind, 'export.kind', 'noun'), type: t(`export.type.${fileType}`), ...range })}</p>
          {fileType === 'xls' && <p>{t('export.xlsxNote')}</p>}
          {fileType === 'movebank' && <p>{t('export.movebankNote')}</p>}
          {(GEODATA_FILE_TYPES as readonly ExportFileType[]).includes(fileType) && <p>{t('export.geodataNote')}</p>}
        </div>
      ),
      okText: t('export.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'export-ok' } as Record<`data-${string}`, string>,
      onOk: () => {
        void run(fileType, range);
      },
    });
  };

  const button = (
    <Dropdown
      disabled={blocked !== null || busy}
      trigger={['click']}
      menu={{ items: types.map((type) => ({ key: type, label: <span data-testid={`export-${type}`}>{t(`export.type.${type}`)}</span> })), onClick: ({ key }) => confirm(key as ExportFileType) }}
    >
      <Button icon={<DownloadOutlined />} disabled={blocked !== null} loading={busy} data-testid={`export-button-${kind}`}>
        {t('export.button')}
      </Button>
    </Dropdown>
  );
  return blocked ? (
    <Tooltip title={blocked}>
      <span data-testid={`export-blocked-${kind}`}>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}
