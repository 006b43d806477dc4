import { windowOrdered } from '@wildtrack/contract';
import { Alert, App, Button, Card, Empty, Input, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkedImeis, isSelectable, TreeLoadState, useDeviceTree, useTreeSelection, type DeviceEntry } from '../../../widgets/device-tree';
import { readStoredUser, useZone } from '../../../lib/session';
import { useCreateShare, useRecipient } from '../api';
import { dataTermsComplete, NEW_TERMS, ShareTermsFields, termsBody, type Terms } from './ShareTerms';

/**
 * A new share (§5 Sharing): the devices checked in the tree (those without ShareDevice, and VHF
 * receivers, are filtered out first and named), the recipient by user name or e-mail (its nickname shown
 * once found; never yourself), the window, the data period (all history unless chosen otherwise) and the rights.
 */
export function ShareForm({ onShared }: { onShared: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const zone = useZone();
  const tree = useDeviceTree();
  const index = tree.data;
  const selection = useTreeSelection('share');
  const checked = useMemo<DeviceEntry[]>(() => {
    if (!index) return [];
    return checkedImeis(index, selection.checkedKeys)
      .map((imei) => index.deviceByKey.get(index.keysByImei.get(imei)?.[0] ?? ''))
      .filter((e): e is DeviceEntry => e !== undefined);
  }, [index, selection.checkedKeys]);
  const devices = checked.filter((e) => isSelectable(e.device, e.permission, 'share'));
  const dropped = checked.filter((e) => !isSelectable(e.device, e.permission, 'share'));

  const [account, setAccount] = useState('');
  const [lookedUp, setLookedUp] = useState('');
  const recipient = useRecipient(lookedUp);
  const me = readStoredUser();
  const self = [me.userName, me.email].some((mine) => mine !== '' && mine.toLowerCase() === account.trim().toLowerCase());
  const [terms, setTerms] = useState<Terms>(NEW_TERMS);
  const [tried, setTried] = useState(false);
  const create = useCreateShare();

  const found = lookedUp !== '' && lookedUp === account.trim() && recipient.data?.Exists === true;
  const problems = [
    devices.length === 0 && t('share.problem.devices'),
    account.trim() === '' && t('share.problem.account'),
    self && t('share.problem.self'),
    account.trim() !== '' && !self && lookedUp === account.trim() && recipient.data?.Exists === false && t('share.problem.noAccount'),
    terms.window === null && t('share.problem.window'),
    terms.window !== null && !windowOrdered(...terms.window) && t('share.problem.order'),
    !dataTermsComplete(terms.data) && t('share.problem.dataFrom'),
  ].filter((p): p is string => typeof p === 'string');

  const submit = async () => {
    setTried(true);
    if (problems.length > 0 || terms.window === null) return;
    await create.mutateAsync({ imeis: devices.map((d) => d.device.IMEI), account: account.trim(), ...termsBody({ ...terms, window: terms.window }, zone) });
    void message.success(t('share.created', { count: devices.length }));
    onShared();
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="share-form">
      <Card size="small" title={t('share.devices', { count: devices.length })}>
        <TreeLoadState tree={tree} />
        {devices.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('share.pickDevices')} />
        ) : (
          <Space wrap data-testid="share-devices">
            {devices.map((d) => (
              <Tag key={d.key} data-imei={d.device.IMEI}>
                {d.device.RemarkName || d.device.Caption} <Typography.Text type="secondary">{d.device.IMEI}</Typography.Text>
              </Tag>
            ))}
          </Space>
        )}
        {dropped.length > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 8 }}
            message={t('share.dropped', { devices: dropped.map((d) => d.device.RemarkName || d.device.Caption).join(', ') })}
          />
        )}
      </Card>
      <Card size="small" title={t('share.recipient')}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Input.Search
            data-testid="share-account"
            aria-label={t('share.account')}
            placeholder={t('share.accountPlaceholder')}
            value={account}
            enterButton={t('share.find')}
            loading={recipient.isFetching}
            onChange={(e) => setAccount(e.target.value)}
            onSearch={(v) => !self && setLookedUp(v.trim())}
            onBlur={() => !self && setLookedUp(account.trim())}
            status={self || (lookedUp === account.trim() && recipient.data?.Exists === false) ? 'error' : undefined}
            style={{ maxWidth: 420 }}
          />
          <div data-testid="share-recipient">
            {self ? (
              <Typography.Text type="danger">{t('share.problem.self')}</Typography.Text>
            ) : found ? (
              <Typography.Text type="success">{t('share.foundNick', { name: recipient.data!.NickName })}</Typography.Text>
            ) : lookedUp !== '' && lookedUp === account.trim() && recipient.data?.Exists === false ? (
              <Typography.Text type="danger">{t('share.problem.noAccount')}</Typography.Text>
            ) : recipient.isError ? (
              <Typography.Text type="danger">{t('share.lookupFailed')}</Typography.Text>
            ) : null}
          </div>
        </Space>
      </Card>
      <Card size="small" title={t('share.terms')}>
        <ShareTermsFields value={terms} onChange={setTerms} zone={zone} />
      </Card>
      {tried && problems.length > 0 && <Alert type="error" showIcon data-testid="share-problems" message={problems.join(' ')} />}
      <Button type="primary" data-testid="share-submit" loading={create.isPending} onClick={() => void submit().catch(() => undefined)}>
        {t('share.submit')}
      </Button>
    </Space>
  );
}
