import { UndoOutlined } from '@ant-design/icons';
import { TdtKeySchema, TIME_ZONES, TimeZoneSchema, type AccountSetting } from '@wildtrack/contract';
import { Alert, App, Button, Form, Input, Modal, Select, Skeleton, Space, Switch } from 'antd';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { isApiError, isIgnorable } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { browserTimeZone, useZone } from '../../../lib/session';
import { checkTdtKey } from '../api/checkTdtKey';
import { useAccountSetting, useSaveAccountSetting } from '../api/useAccountSetting';
import './settings.css';

export interface SettingsValues {
  app: boolean;
  email: boolean;
  tdtKey: string;
  timeZone: string;
}

/**
 * The form's values: the account's switches and key, and the zone this browser shows times in (its own
 * choice wins over the account's zone on the server, which another device's sign-in may have set), so
 * saving the switches never moves this browser's times.
 */
export function toFormValues(setting: AccountSetting, shownZone: string): SettingsValues {
  return {
    app: setting.ReceiveNotification.APP === 1,
    email: setting.ReceiveNotification.Email === 1,
    tdtKey: setting.TdtKey,
    // A zone outside the offered list (never stored by this server) shows as the nearest valid form.
    timeZone: TimeZoneSchema.safeParse(shownZone).data ?? TimeZoneSchema.safeParse(setting.TimeZone).data ?? browserTimeZone(),
  };
}

const ZONE_OPTIONS = TIME_ZONES.map((zone) => ({ value: zone, label: zone }));

/**
 * The settings dialog (§2.4 Settings): the notification switches, the map-service (Tianditu) key and the
 * time zone with its reset to the browser's zone. It mounts with each opening (destroyOnHidden), reads
 * the settings afresh and shows the form only once they are in, so it never starts from stale values.
 */
export function SettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  // The modal stops re-rendering its content once it closes (the content lives on through the closing
  // animation), so the form learns of a close through this ref rather than a prop.
  const isOpen = useRef(open);
  useEffect(() => {
    isOpen.current = open;
  }, [open]);
  return (
    <Modal open={open} title={t('settings.title')} onCancel={onClose} footer={null} destroyOnHidden width={520}>
      <SettingsBody isOpen={isOpen} onClose={onClose} />
    </Modal>
  );
}

interface BodyProps {
  isOpen: RefObject<boolean>;
  onClose: () => void;
}

function SettingsBody({ isOpen, onClose }: BodyProps) {
  const { t } = useTranslation();
  const query = useAccountSetting();

  if (query.isError) {
    return <ErrorState title={t('settings.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (!query.isFetchedAfterMount || !query.data) {
    return (
      <div data-testid="settings-loading">
        <Skeleton active paragraph={{ rows: 6 }} />
      </div>
    );
  }
  return <SettingsForm setting={query.data} isOpen={isOpen} onClose={onClose} />;
}

function SettingsForm({ setting, isOpen, onClose }: BodyProps & { setting: AccountSetting }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<SettingsValues>();
  const save = useSaveAccountSetting();
  const shownZone = useZone();

  /** The key could not be tried: save it anyway, save the rest with the key already saved, or cancel. */
  const askUnchecked = (): Promise<'anyway' | 'keep' | 'cancel'> =>
    new Promise((resolve) => {
      const dialog = modal.confirm({
        title: t('settings.keyUnchecked.title'),
        content: t('settings.keyUnchecked.text'),
        okText: t('settings.keyUnchecked.saveAnyway'),
        cancelText: t('common.cancel'),
        onOk: () => resolve('anyway'),
        onCancel: () => resolve('cancel'),
        footer: (_, { OkBtn, CancelBtn }) => (
          <>
            <CancelBtn />
            <Button
              data-testid="settings-keep-key"
              onClick={() => {
                resolve('keep');
                dialog.destroy();
              }}
            >
              {setting.TdtKey ? t('settings.keyUnchecked.keepSaved') : t('settings.keyUnchecked.withoutKey')}
            </Button>
            <OkBtn />
          </>
        ),
      });
    });
  const [checking, setChecking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const defaultZone = browserTimeZone();

  const submit = async (): Promise<void> => {
    let values: SettingsValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields show what is wrong
    }
    setRefusal(null);
    const tdtKey = TdtKeySchema.parse(values.tdtKey ?? '');
    form.setFieldValue('tdtKey', tdtKey);
    // §5: a key is proved by a test tile before it is saved. The key already saved was proved when it
    // was entered; asking again would keep an offline field laptop from changing anything else.
    let keyToSave = tdtKey;
    if (tdtKey && tdtKey !== setting.TdtKey) {
      setChecking(true);
      form.setFields([{ name: 'tdtKey', validating: true, errors: [] }]);
      const check = await checkTdtKey(tdtKey);
      setChecking(false);
      // Closed while the tile loaded: no save the user walked away from.
      if (!isOpen.current) return;
      form.setFields([{ name: 'tdtKey', validating: false, errors: check === 'refused' ? [t('settings.keyInvalid')] : [] }]);
      if (check === 'refused') return;
      if (check === 'unreachable') {
        // Tianditu can't be asked (offline, or no answer): the key is not known to be wrong. The user
        // chooses; the rest of the settings (the time zone) are saved either way but on Cancel.
        const choice = await askUnchecked();
        if (choice === 'cancel' || !isOpen.current) return;
        if (choice === 'keep') {
          keyToSave = setting.TdtKey;
          form.setFieldValue('tdtKey', setting.TdtKey);
        }
      }
    }
    try {
      await save.mutateAsync({ app: values.app ? 1 : 0, email: values.email ? 1 : 0, tdtKey: keyToSave, timeZone: values.timeZone });
    } catch (e) {
      // The client has shown the refusal already; it stays beside the form until the next try.
      if (isOpen.current && !isIgnorable(e)) setRefusal(isApiError(e) ? (e.info.msg ?? e.message) : e instanceof Error ? e.message : String(e));
      return;
    }
    void message.success(t('settings.saved'));
    onClose();
  };

  const busy = checking || save.isPending;
  return (
    <Form
      form={form}
      name="settings"
      layout="vertical"
      initialValues={toFormValues(setting, shownZone)}
      onFinish={() => void submit()}
      disabled={busy}
      data-testid="settings-form"
    >
      <Form.Item label={t('settings.notifications')}>
        <div className="wt-settings-switch">
          <label htmlFor="settings_app">{t('settings.receiveApp')}</label>
          <Form.Item name="app" valuePropName="checked" noStyle>
            <Switch id="settings_app" autoFocus />
          </Form.Item>
        </div>
        <div className="wt-settings-switch">
          <label htmlFor="settings_email">{t('settings.receiveEmail')}</label>
          <Form.Item name="email" valuePropName="checked" noStyle>
            <Switch id="settings_email" />
          </Form.Item>
        </div>
      </Form.Item>

      <Form.Item
        name="tdtKey"
        label={t('settings.tdtKey')}
        extra={checking ? t('settings.keyChecking') : t('settings.tdtKeyHelp')}
        rules={[zodRule(TdtKeySchema, t, 'field.tdtKey')]}
      >
        <Input placeholder={t('settings.tdtKeyPlaceholder')} allowClear autoComplete="off" spellCheck={false} />
      </Form.Item>

      <Form.Item label={t('settings.timeZone')} required extra={t('settings.zoneDefault', { zone: defaultZone })} htmlFor="settings_timeZone">
        <Space.Compact block>
          <Form.Item name="timeZone" noStyle rules={[zodRule(TimeZoneSchema, t, 'field.timeZone')]}>
            <Select options={ZONE_OPTIONS} showSearch data-testid="settings-time-zone" />
          </Form.Item>
          <Button icon={<UndoOutlined />} onClick={() => form.setFieldValue('timeZone', defaultZone)} data-testid="settings-reset-zone">
            {t('settings.resetZone')}
          </Button>
        </Space.Compact>
      </Form.Item>

      {refusal ? <Alert type="warning" showIcon title={refusal} className="wt-settings-refusal" /> : null}

      <div className="wt-settings-footer">
        <Button onClick={onClose} disabled={false}>
          {t('common.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={busy} disabled={false} data-testid="settings-save">
          {t('common.save')}
        </Button>
      </div>
    </Form>
  );
}
