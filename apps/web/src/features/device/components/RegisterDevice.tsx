import { PlusOutlined } from '@ant-design/icons';
import {
  BatteryType,
  DeviceImeiSchema,
  INSTR_SUPPORT_NAMES,
  type InstrSupportName,
  REGISTER_BATTERY_TYPES,
  REGISTER_DEVICE_TYPES,
  RegisterDeviceBody,
  type RegisteredDevice,
  ROOT_FOLDER_ID,
  SENSOR_FLAG_NAMES,
  type SensorFlagName,
} from '@wildtrack/contract';
import { Alert, Button, Checkbox, Form, Input, Modal, Select, Space, TreeSelect, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { useIsPrimary } from '../../../lib/isPrimary';
import { useDeviceTree } from '../../../widgets/device-tree';
import { useRegisterDevice } from '../api/register';
import { folderOptions } from './MovebankImport';

interface Values {
  imei: string;
  deviceType: (typeof REGISTER_DEVICE_TYPES)[number];
  model: string;
  caption: string;
  sensors: SensorFlagName[];
  instrSupport: InstrSupportName[];
  batteryType: (typeof REGISTER_BATTERY_TYPES)[number];
  folderId: string;
}

const shape = RegisterDeviceBody.shape;

/**
 * "Register device" on /device (issue 28 item 1), for the organisation's primary user: a real device's
 * IMEI with its check digit, type, model, name, sensors, the instructions it can carry out (checkboxes),
 * battery and folder, checked by the contract's rules; then its secret, shown this once with a copy
 * button, and an example signed request.
 */
export function RegisterDevice({ folderId }: { folderId: string | null }) {
  const { t } = useTranslation();
  const primary = useIsPrimary();
  const [open, setOpen] = useState(false);
  if (!primary) return null;
  return (
    <>
      <Button icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="register-device-open">
        {t('registerDevice.button')}
      </Button>
      {open ? <RegisterDialog folderId={folderId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function RegisterDialog({ folderId, onClose }: { folderId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const tree = useDeviceTree();
  const register = useRegisterDevice();
  const [form] = Form.useForm<Values>();
  const [done, setDone] = useState<RegisteredDevice | null>(null);
  const root = tree.data?.top.find((f) => f.kind === 'root');
  const options = useMemo(() => folderOptions(root, t), [root, t]);
  const target = folderId && (folderId === ROOT_FOLDER_ID || tree.data?.folderById.get(folderId)?.kind === 'org') ? folderId : ROOT_FOLDER_ID;

  const submit = async (): Promise<void> => {
    try {
      const values = await form.validateFields();
      setDone(await register.mutateAsync(values));
    } catch {
      // a field the rules refuse is shown at the field; the server's refusal in the dialog (and by the client as a warning)
    }
  };
  const refusal = register.error && isApiError(register.error) ? (register.error.info.msg ?? register.error.message) : null;

  return (
    <Modal
      open
      title={t('registerDevice.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        done ? (
          <Button type="primary" onClick={onClose} data-testid="register-device-close">
            {t('registerDevice.close')}
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" loading={register.isPending} onClick={() => void submit()} data-testid="register-device-submit">
              {t('registerDevice.submit')}
            </Button>
          </Space>
        )
      }
    >
      {done ? (
        <div data-testid="register-device-result">
          <Alert type="warning" showIcon title={t('registerDevice.secretOnce', { imei: done.IMEI })} style={{ marginBottom: 12 }} />
          <Typography.Text strong>{t('registerDevice.secret')}</Typography.Text>
          <Typography.Paragraph copyable={{ text: done.Secret }} code data-testid="register-device-secret">
            {done.Secret}
          </Typography.Paragraph>
          <Typography.Text strong>{t('registerDevice.example')}</Typography.Text>
          <Typography.Paragraph type="secondary">{t('registerDevice.exampleHint')}</Typography.Paragraph>
          <Typography.Paragraph copyable={{ text: done.ExampleRequest }}>
            <pre data-testid="register-device-example" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}>
              {done.ExampleRequest}
            </pre>
          </Typography.Paragraph>
        </div>
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ deviceType: REGISTER_DEVICE_TYPES[0], model: '', caption: '', sensors: ['GNSS'], instrSupport: [], batteryType: BatteryType.Unknown, folderId: target }}
        >
          {refusal ? <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} data-testid="register-device-refusal" /> : null}
          <Form.Item name="imei" label={t('registerDevice.imei')} extra={t('registerDevice.imeiHint')} rules={[zodRule(DeviceImeiSchema, t, 'field.imei')]}>
            <Input inputMode="numeric" maxLength={15} data-testid="register-device-imei" />
          </Form.Item>
          <Form.Item name="deviceType" label={t('registerDevice.deviceType')}>
            <Select options={REGISTER_DEVICE_TYPES.map((v) => ({ value: v, label: t(`registerDevice.type.${v}`) }))} />
          </Form.Item>
          <Space.Compact block>
            <Form.Item name="model" label={t('registerDevice.model')} rules={[zodRule(shape.model, t, 'field.model')]} style={{ flex: 1 }}>
              <Input maxLength={40} />
            </Form.Item>
            <Form.Item name="caption" label={t('registerDevice.caption')} rules={[zodRule(shape.caption, t, 'field.caption')]} style={{ flex: 1 }}>
              <Input maxLength={40} placeholder={t('registerDevice.captionHint')} />
            </Form.Item>
          </Space.Compact>
          <Form.Item name="sensors" label={t('registerDevice.sensors')}>
            <Select mode="multiple" options={SENSOR_FLAG_NAMES.map((n) => ({ value: n, label: n }))} />
          </Form.Item>
          <Form.Item name="instrSupport" label={t('registerDevice.instrSupport')} extra={t('registerDevice.instrSupportHint')}>
            <Checkbox.Group data-testid="register-device-instr" style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
              options={INSTR_SUPPORT_NAMES.map((n) => ({ value: n, label: t(`registerDevice.instr.${n}`) }))} />
          </Form.Item>
          <Form.Item name="batteryType" label={t('registerDevice.batteryType')}>
            <Select options={REGISTER_BATTERY_TYPES.map((v) => ({ value: v, label: t(`registerDevice.battery.${v}`) }))} />
          </Form.Item>
          <Form.Item name="folderId" label={t('registerDevice.folder')}>
            <TreeSelect treeData={options} treeDefaultExpandAll />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
