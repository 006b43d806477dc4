import { EditOutlined, TagOutlined } from '@ant-design/icons';
import {
  DeviceStatus,
  DeviceType,
  InstrSupportFlag,
  SECOND_LEVEL_FIX_COUNT,
  SpeciesType,
  UpdateProperty,
  type DeviceDetail,
  type InstrSupportName,
} from '@wildtrack/contract';
import { Alert, App, Button, Descriptions, Form, Input, Modal, Select, Space, Switch, Tag, Tooltip, Typography, type InputRef } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NameDialog, useUpdateRemarkName } from '../../../widgets/device-tree';
import { SensorIcons } from '../../../components/SensorIcons';
import { useFocusOnOpen } from '../../../components/useFocusOnOpen';
import { isApiError, isIgnorable } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { useSetSecondLevelFix, useUpdateProperty } from '../api';
import { useObservedWork } from '../api/observed';
import { hasReported, LastFix } from './DeviceState';
import { Battery, StatusTag } from './status';
import { VoltageTrend } from './VoltageTrend';

const RIGHTS = ['EditDevice', 'EditFix', 'RemoteInstr', 'ShareDevice', 'DownloadData'] as const;

/** Why the second-level-fix switch is off limits (§5), or null. */
export function secondLevelFixBlock(d: Pick<DeviceDetail, 'Type' | 'Example' | 'Permission'>): string | null {
  if (d.Example) return 'device.readOnlyExample';
  if (d.Type === DeviceType.Phone) return 'device.secondLevelPhone';
  if (!d.Permission.EditDevice) return 'device.noEditRight';
  return null;
}

function SecondLevelFix({ detail }: { detail: DeviceDetail }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const mutation = useSetSecondLevelFix();
  const [refusal, setRefusal] = useState<string | null>(null);
  const block = secondLevelFixBlock(detail);
  // Second-level fixes take SECOND_LEVEL_FIX_COUNT fixes each time and cost battery: the switch asks first.
  const toggle = (checked: boolean): void => {
    const which = checked ? 'on' : 'off';
    modal.confirm({
      title: t(`device.secondLevelConfirm.${which}Title`),
      content: t(`device.secondLevelConfirm.${which}Text`, { count: SECOND_LEVEL_FIX_COUNT }),
      okText: t(`device.secondLevelConfirm.${which}`),
      cancelText: t('common.cancel'),
      onOk: () => apply(checked),
    });
  };
  const apply = (checked: boolean): void => {
    setRefusal(null);
    mutation.mutate(
      { imei: detail.IMEI, enabled: checked ? 1 : 0 },
      {
        onSuccess: () => void message.success(t('common.saved')),
        onError: (e) => {
          if (!isIgnorable(e)) setRefusal(isApiError(e) ? (e.info.msg ?? e.message) : String(e));
        },
      },
    );
  };
  const control = (
    <Switch
      checked={detail.SecondLevelFix === 1}
      disabled={block !== null}
      loading={mutation.isPending}
      onChange={toggle}
      aria-label={t('device.field.SecondLevelFix')}
      data-testid="second-level-fix"
    />
  );
  return (
    <Space orientation="vertical" size={4}>
      <Space>
        {block ? (
          <Tooltip title={t(block)}>
            <span data-testid="second-level-fix-blocked">{control}</span>
          </Tooltip>
        ) : (
          control
        )}
        <Typography.Text type="secondary">{t('device.secondLevelHint', { count: SECOND_LEVEL_FIX_COUNT })}</Typography.Text>
      </Space>
      {refusal ? <Alert type="warning" showIcon title={refusal} data-testid="second-level-refusal" /> : null}
    </Space>
  );
}

interface PropertyValues {
  caption: string;
  description: string;
  speciesType: number;
  status: number;
}

const shape = UpdateProperty.body.shape;

/** Caption, description, species type and status (UpdateProperty; needs EditDevice, never on examples). */
function PropertyDialog({ detail, open, onClose }: { detail: DeviceDetail; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PropertyValues>();
  const mutation = useUpdateProperty();
  const [firstField, focusFirst] = useFocusOnOpen<InputRef>();
  const submit = async (): Promise<void> => {
    const v = await form.validateFields();
    await mutation.mutateAsync({ imei: detail.IMEI, caption: v.caption.trim(), description: v.description.trim(), speciesType: v.speciesType, status: v.status });
    message.success(t('common.saved'));
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('device.editProperties')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      destroyOnHidden
      afterOpenChange={focusFirst}
      data-testid="property-dialog"
    >
      <Form
        form={form}
        name="deviceProperties"
        layout="vertical"
        initialValues={{ caption: detail.Caption, description: detail.Description, speciesType: detail.SpeciesType, status: detail.Status }}
      >
        <Form.Item name="caption" label={t('device.field.Caption')} rules={[zodRule(shape.caption.unwrap(), t, 'field.caption')]} required>
          <Input maxLength={40} autoFocus ref={firstField} />
        </Form.Item>
        <Form.Item name="speciesType" label={t('device.field.SpeciesType')}>
          <Select options={Object.values(SpeciesType).map((v) => ({ value: v, label: t(`species.${v}`) }))} />
        </Form.Item>
        <Form.Item name="status" label={t('device.field.Status')}>
          <Select options={Object.values(DeviceStatus).map((v) => ({ value: v, label: t(`status.${v}`) }))} />
        </Form.Item>
        <Form.Item name="description" label={t('device.field.Description')} rules={[zodRule(shape.description.unwrap(), t, 'field.description')]}>
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The voltage over the device's recent fixes (the observed work's trend), under its battery level. */
function DetailVoltageTrend({ imei, reported }: { imei: string; reported: boolean }) {
  const { t } = useTranslation();
  const observed = useObservedWork(imei);
  if (!reported || !observed.data) return null;
  const count = observed.data.Voltages.length;
  // one reading is the level shown above; a trend needs two
  if (count < 2) return <div className="wt-voltage-trend-caption" data-testid="voltage-trend-caption">{t(count === 0 ? 'deviceState.trendEmpty' : 'deviceState.trendOne')}</div>;
  return (
    <>
      <VoltageTrend points={observed.data.Voltages} />
      <div className="wt-voltage-trend-caption">{t('deviceState.trend', { days: observed.data.Days })}</div>
    </>
  );
}

/** Every Device-detail field of §3, with status names of §4 and the second-level-fix switch. */
export function DetailsTab({ detail: d }: { detail: DeviceDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [editing, setEditing] = useState(false);
  const [remark, setRemark] = useState(false);
  const updateRemark = useUpdateRemarkName();
  const canEdit = !d.Example && d.Permission.EditDevice;
  const dash = <span className="wt-muted">—</span>;
  const text = (v: string) => (v ? v : dash);
  const instr = (Object.keys(InstrSupportFlag) as InstrSupportName[]).filter((n) => (d.InstrSupport & InstrSupportFlag[n]) !== 0);

  return (
    <>
      <Space className="wt-details-actions" style={{ marginBottom: 12 }}>
        <Button icon={<TagOutlined />} onClick={() => setRemark(true)} data-testid="edit-remark">
          {t('tree.remarkName')}
        </Button>
        <Tooltip title={canEdit ? '' : t(d.Example ? 'device.readOnlyExample' : 'device.noEditRight')}>
          <Button icon={<EditOutlined />} disabled={!canEdit} onClick={() => setEditing(true)} data-testid="edit-properties">
            {t('device.editProperties')}
          </Button>
        </Tooltip>
      </Space>
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xxl: 3 }} data-testid="details-list">
        <Descriptions.Item label={t('device.field.Caption')}>{d.Caption}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.RemarkName')}>{text(d.RemarkName)}</Descriptions.Item>
        <Descriptions.Item label="IMEI">
          <span className="wt-mono">{d.IMEI}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.CustomerName')}>{text(d.CustomerName)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.FolderName')}>{text(d.FolderName)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.ModelName')}>{text(d.ModelName)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.Type')}>{t(`deviceType.${d.Type}`, { defaultValue: String(d.Type) })}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.SpeciesType')}>{t(`species.${d.SpeciesType}`, { defaultValue: String(d.SpeciesType) })}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.Status')}>
          <StatusTag status={d.Status} reported={hasReported(d)} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.BatteryType')}>{t(`batteryType.${d.BatteryType}`, { defaultValue: String(d.BatteryType) })}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.Voltage')}>
          {hasReported(d) ? <Battery voltage={d.Voltage} level={d.BatteryLevel} batteryType={d.BatteryType} /> : dash}
          <DetailVoltageTrend imei={d.IMEI} reported={hasReported(d)} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.LastWorkTime')}>
          <LastFix at={d.LastWorkAt} gapMinutes={d.ReportGapMinutes} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.WorkDays')}>{t('device.days', { count: d.WorkDays })}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.EffectiveTime')}>{text(d.EffectiveTime)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.FailureTime')}>{text(d.FailureTime)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.PostBackFrequency')}>{text(d.PostBackFrequency)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.PostBackTime')}>{text(d.PostBackTime)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.SamplingTimes')}>{d.SamplingTimes ?? t('ws.unknown', { ns: 'contract' })}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.Attent')}>{d.Attent ? t('common.yes') : t('common.no')}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.FenceCount')}>
          {/* the device's fences on the geofence screen */}
          {d.FenceCount > 0 ? (
            <Link to={`/fence?imei=${encodeURIComponent(d.IMEI)}`} data-testid="device-fence-count">
              {d.FenceCount}
            </Link>
          ) : (
            d.FenceCount
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.GNSSCollectionDesc')}>{text(d.GNSSCollectionDesc)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.AccCollectionDesc')}>{text(d.AccCollectionDesc)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.DataPostbackDesc')}>{text(d.DataPostbackDesc)}</Descriptions.Item>
        <Descriptions.Item label={t('device.field.Sensor')}>
          <SensorIcons mask={d.Sensor} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.InstrSupport')}>
          {instr.length ? instr.map((n) => <Tag key={n}>{t(`instrSupport.${n}`)}</Tag>) : dash}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.Permission')}>
          {RIGHTS.map((r) => (
            <Tag key={r} color={d.Permission[r] ? 'green' : 'default'} data-right={r} data-granted={d.Permission[r] ? '1' : '0'}>
              {t(`right.${r}`)}
            </Tag>
          ))}
          {d.Permission.EffectiveTime || d.Permission.FailureTime ? (
            <Typography.Text type="secondary">
              {' '}
              {d.Permission.EffectiveTime} ~ {d.Permission.FailureTime}
            </Typography.Text>
          ) : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.SecondLevelFix')} span={{ xs: 1, md: 2, xxl: 3 }}>
          <SecondLevelFix detail={d} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.field.Description')} span={{ xs: 1, md: 2, xxl: 3 }}>
          {text(d.Description)}
        </Descriptions.Item>
        {d.Image ? (
          <Descriptions.Item label={t('device.field.Image')} span={{ xs: 1, md: 2, xxl: 3 }}>
            <img src={d.Image} alt={d.Caption} style={{ maxHeight: 120, borderRadius: 6 }} />
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      <PropertyDialog detail={d} open={editing} onClose={() => setEditing(false)} />
      <NameDialog
        open={remark}
        kind="remark"
        title={t('tree.remarkName')}
        label={t('tree.remarkName')}
        initial={d.RemarkName}
        context={`${d.Caption} · ${d.IMEI}`}
        onClose={() => setRemark(false)}
        onSubmit={async (remarkName) => {
          await updateRemark.mutateAsync({ imei: d.IMEI, remarkName });
          message.success(t('common.saved'));
        }}
      />
    </>
  );
}
