import { UploadOutlined } from '@ant-design/icons';
import { FENCE_SHP_MAX_BYTES } from '@wildtrack/contract';
import { Alert, Button, Modal, Progress, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalOf, useImportShp } from '../api';

interface Props {
  open: boolean;
  onClose: () => void;
  /** The settings every imported fence gets (the form's, checked by the page), or the reason they can't be used. */
  settings: Record<string, unknown> | null;
  settingsProblem: string | null;
  onImported: (count: number) => void;
}

/** The client's own check of a file (§5, §9: .shp only, under 10 MB); the server decides the rest. */
export function shpProblem(file: { name: string; size: number }): 'type' | 'size' | null {
  if (!/\.shp$/i.test(file.name)) return 'type';
  if (file.size >= FENCE_SHP_MAX_BYTES) return 'size';
  return null;
}

/**
 * Importing a shapefile's polygons as fences (§5 Shapefile import): one .shp under 10 MB, uploaded with
 * its progress; the server makes a fence of each polygon with the form's settings, all or none. A refusal
 * shows as the spec's "geofence file import failed" with the reason the server gives.
 */
export function ShpImport({ open, onClose, settings, settingsProblem, onImported }: Props) {
  const { t } = useTranslation();
  const run = useImportShp();
  const [progress, setProgress] = useState<number | null>(null);
  // what failed: the server's sentence (already "Geofence file import failed: <reason>"), or this
  // client's own reason under that title
  const [failure, setFailure] = useState<{ title: string; detail?: string } | null>(null);
  const abort = useRef<AbortController | null>(null);

  const start = (file: File) => {
    setFailure(null);
    const problem = shpProblem(file);
    if (problem) {
      setFailure({ title: t('fence.import.failed'), detail: t(problem === 'type' ? 'fence.import.onlyShp' : 'fence.import.tooLarge') });
      return;
    }
    if (!settings) return;
    abort.current = new AbortController();
    setProgress(0);
    run.mutate(
      { file, settings, signal: abort.current.signal, onProgress: (sent, total) => setProgress(total > 0 ? Math.round((sent / total) * 100) : 0) },
      {
        onSuccess: (data) => {
          setProgress(null);
          onImported(data.List.length);
        },
        onError: (error) => {
          setProgress(null);
          const said = refusalOf(error);
          setFailure(said ? { title: said } : { title: t('fence.import.failed'), detail: error instanceof Error ? error.message : String(error) });
        },
      },
    );
  };

  const close = () => {
    abort.current?.abort();
    setProgress(null);
    setFailure(null);
    onClose();
  };

  return (
    <Modal open={open} title={t('fence.import.title')} onCancel={close} footer={null} destroyOnHidden>
      <div data-testid="fence-import">
        <Typography.Paragraph type="secondary">{t('fence.import.hint')}</Typography.Paragraph>
        {settingsProblem ? <Alert type="warning" showIcon message={settingsProblem} className="wt-fence-gap" data-testid="fence-import-settings" /> : null}
        <Upload
          accept=".shp"
          maxCount={1}
          showUploadList={false}
          disabled={!settings || progress !== null}
          beforeUpload={(file) => {
            start(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={!settings || progress !== null} data-testid="fence-import-choose">
            {t('fence.import.choose')}
          </Button>
        </Upload>
        {progress !== null ? <Progress percent={progress} size="small" data-testid="fence-import-progress" /> : null}
        {failure ? (
          <Alert
            className="wt-fence-gap"
            type="error"
            showIcon
            message={failure.title}
            description={failure.detail}
            data-testid="fence-import-failed"
          />
        ) : null}
      </div>
    </Modal>
  );
}
