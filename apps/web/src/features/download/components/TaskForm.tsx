import { CloudDownloadOutlined } from '@ant-design/icons';
import { type ExportFileType, type ExportKind, EXPORT_FILE_TYPES, formatTime, GEODATA_FILE_TYPES, parseTime, TIME_ZONES } from '@wildtrack/contract';
import { Alert, App, Button, Card, Checkbox, Empty, Form, Radio, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKindTexts } from '../../../i18n/sensor-kinds';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { isApiError } from '../../../lib/api';
import { resolveRange, type PositionRange } from '../../../lib/positionSelection';
import { useZone } from '../../../lib/session';
import type { DeviceEntry } from '../../../widgets/device-tree';
import { useCreateTask } from '../api';
import { FORM_KINDS, kindsFor } from '../model';

/**
 * The form of a new download task (§2.1 /download): the devices checked in the tree (the tree lets only
 * devices with DownloadData and no VHF receiver be checked, §6), the data kinds, the range, the zone the
 * files' times are written in and the format; one task per request.
 */
export function TaskForm({ chosen }: { chosen: DeviceEntry[] }) {
  const { t } = useTranslation();
  const texts = useKindTexts();
  const { message } = App.useApp();
  const userZone = useZone();
  const [kinds, setKinds] = useState<ExportKind[]>(['fix']);
  const [range, setRange] = useState<PositionRange>({ span: 7 });
  const [zone, setZone] = useState(userZone);
  const [fileType, setFileType] = useState<ExportFileType>('csv');
  const [tried, setTried] = useState(false);
  const create = useCreateTask();
  const usable = kindsFor(fileType, kinds);
  const problem = chosen.length === 0 ? t('download.form.noDevices') : usable.length === 0 ? t('download.form.noKinds') : null;

  const submit = () => {
    setTried(true);
    if (problem) return;
    // the range is picked in the user's zone; the task reads it, and writes the files' times, in the zone chosen
    const { start, end } = resolveRange(range, userZone);
    const inZone = (text: string) => formatTime(parseTime(text, userZone) ?? 0, zone);
    create.mutate(
      { imeis: chosen.map((c) => c.device.IMEI), kinds: usable, startTime: inZone(start), endTime: inZone(end), timeZone: zone, fileType },
      {
        onSuccess: () => {
          setTried(false);
          void message.success(t('download.form.created'));
        },
      },
    );
  };
  const refusal = create.error && isApiError(create.error) ? (create.error.info.msg ?? create.error.message) : create.error?.message;

  return (
    <Card title={t('download.form.title')} size="small" data-testid="download-form">
      <Form layout="vertical" onFinish={submit}>
        <Form.Item label={t('download.form.devices', { count: chosen.length })}>
          {chosen.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('download.form.checkDevices')} />
          ) : (
            <div className="wt-download-chosen" data-testid="download-chosen">
              {chosen.map((c) => (
                <Tag key={c.device.IMEI} data-imei={c.device.IMEI}>
                  {c.device.RemarkName || c.device.Caption} <Typography.Text type="secondary">{c.device.IMEI}</Typography.Text>
                </Tag>
              ))}
            </div>
          )}
        </Form.Item>
        <Form.Item label={t('download.form.kinds')}>
          <Checkbox.Group data-testid="download-kinds" value={kinds} onChange={(v) => setKinds(v as ExportKind[])} options={FORM_KINDS.map((k) => ({ value: k, label: texts.kind(k, 'download.kind'), disabled: kindsFor(fileType, [k]).length === 0 }))} />
        </Form.Item>
        <Form.Item label={t('download.form.range')}>
          <TimeRangePicker value={range} onChange={setRange} />
        </Form.Item>
        <Space wrap size="large">
          <Form.Item label={t('download.form.zone')}>
            <Select data-testid="download-zone" style={{ width: 120 }} value={zone} onChange={setZone} options={TIME_ZONES.map((z) => ({ value: z, label: z }))} />
          </Form.Item>
          <Form.Item label={t('download.form.format')}>
            <Radio.Group data-testid="download-format" value={fileType} onChange={(e) => setFileType(e.target.value as ExportFileType)} optionType="button" options={EXPORT_FILE_TYPES.map((f) => ({ value: f, label: t(`download.type.${f}`) }))} />
          </Form.Item>
        </Space>
        {fileType === 'xls' ? <Typography.Paragraph type="secondary">{t('download.form.xlsxNote')}</Typography.Paragraph> : null}
        {(GEODATA_FILE_TYPES as readonly ExportFileType[]).includes(fileType) ? <Typography.Paragraph type="secondary" data-testid="download-geodata-note">{t('download.form.geodataNote')}</Typography.Paragraph> : null}
        {tried && problem ? <Alert type="warning" showIcon message={problem} style={{ marginBottom: 12 }} /> : null}
        {refusal ? <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} data-testid="download-refusal" /> : null}
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" icon={<CloudDownloadOutlined />} loading={create.isPending} data-testid="download-create">
            {t('download.form.create')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
