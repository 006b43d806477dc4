import { KeyOutlined } from '@ant-design/icons';
import { DIRECT_READ_PATH, PERSONAL_TOKEN_EXPIRY_CHOICES, PersonalTokenNameSchema, type PersonalToken } from '@wildtrack/contract';
import { Alert, Button, Form, Input, Modal, Popconfirm, Select, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { MadeList, MakeModal } from '../../../components/MadeList';
import { zodRule } from '../../../lib/form';
import { useSession } from '../../../lib/session';
import { useCreateToken, useRevokeToken, useTokenList } from '../api/useTokens';

type Made = PersonalToken & { Secret: string };

/** The read API's address as a script reaches it from here. */
const apiUrl = (): string => `${window.location.origin}${DIRECT_READ_PATH}`;

/** What a script runs with a new token (R's move2, unchanged: docs/api.md "Read API"). */
export function rExample(userName: string, token: string, url = apiUrl()): string {
  return [
    'library(move2)',
    `options(move2_movebank_api_url = "${url}")`,
    `movebank_store_credentials("${userName}", "${token}", key_name = "wildtrack")`,
    'options(move2_movebank_key_name = "wildtrack")',
    'movebank_download_study_info()',
    '# study_id: a folder id, -1 for the whole organisation',
    'birds <- movebank_download_study(study_id = -1, sensor_type_id = "gps")',
  ].join('\n');
}

/**
 * Personal access tokens (issue 29): read-only keys with which a script (R's move2, Python) reads what this
 * user may read through the Movebank-compatible read API. Made with a name and an expiry, the secret shown
 * once with a copy button and an R example; listed without it; revoked at once.
 */
export function TokensDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('tokens.title')} onCancel={onClose} footer={null} destroyOnHidden width={1000}>
      <TokensBody enabled={open} />
    </Modal>
  );
}

function TokensBody({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const list = useTokenList(enabled);
  const revoke = useRevokeToken();
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<Made | null>(null);

  const state = (s: PersonalToken['State']) => <Tag color={s === 'active' ? 'green' : s === 'expired' ? 'gold' : 'default'}>{t(`tokens.state.${s}`)}</Tag>;
  const columns: TableColumnsType<PersonalToken> = [
    { title: t('tokens.name'), dataIndex: 'Name', width: 180, ellipsis: true },
    { title: t('tokens.hint'), dataIndex: 'Hint', width: 100, render: (v: string) => <Typography.Text code>…{v}</Typography.Text> },
    { title: t('tokens.state.title'), dataIndex: 'State', width: 90, render: state },
    { title: t('tokens.created'), dataIndex: 'CreateTime', width: 165 },
    { title: t('tokens.expires'), dataIndex: 'ExpireTime', width: 165, render: (v: string) => v || t('tokens.never') },
    { title: t('tokens.lastUsed'), dataIndex: 'LastUsedTime', width: 165, render: (v: string) => v || t('tokens.unused') },
    {
      title: t('tokens.actions'),
      key: 'actions',
      width: 100,
      render: (_, row) =>
        row.State === 'revoked' ? null : (
          <Popconfirm
            title={t('tokens.revokeTitle', { name: row.Name })}
            description={t('tokens.revokeContent')}
            okText={t('tokens.revoke')}
            okButtonProps={{ danger: true, id: 'token-revoke-ok' }}
            cancelText={t('common.cancel')}
            onConfirm={async () => {
              try {
                await revoke.mutateAsync({ id: row.IdStr });
              } catch {
                // the client has shown the refusal
              }
            }}
          >
            <Button size="small" danger data-testid={`token-revoke-${row.Name}`}>
              {t('tokens.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  if (list.isError && !list.data) return <ErrorState title={t('tokens.loadError')} error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <MadeList<PersonalToken>
      testId="tokens"
      about={t('tokens.about')}
      newLabel={t('tokens.new')}
      newTestId="token-new"
      onNew={() => setCreating(true)}
      rowKey="IdStr"
      columns={columns}
      rows={list.data?.List ?? []}
      loading={list.isFetching}
      // the name keeps its own width: the fixed columns alone filled 820 px and squeezed it to a letter
      scrollX={965}
      emptyText={t('tokens.empty')}
    >
      <CreateTokenModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(m) => {
          setCreating(false);
          setMade(m);
        }}
      />
      <MadeTokenModal made={made} onClose={() => setMade(null)} />
    </MadeList>
  );
}

function CreateTokenModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (m: Made) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ purpose: string; expiresInDays: number }>();
  const create = useCreateToken();

  const submit = async (): Promise<void> => {
    let values: { purpose: string; expiresInDays: number };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      const m = await create.mutateAsync({ purpose: values.purpose, expiresInDays: values.expiresInDays });
      form.resetFields();
      onCreated(m);
    } catch {
      // the client has shown the server's refusal (too many tokens)
    }
  };

  return (
    <MakeModal
      open={open}
      icon={<KeyOutlined />}
      title={t('tokens.new')}
      okText={t('tokens.create')}
      okId="token-create"
      pending={create.isPending}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
    >
      <Form form={form} name="new-token" layout="vertical" initialValues={{ purpose: '', expiresInDays: 90 }} onFinish={() => void submit()}>
        <Form.Item name="purpose" required label={t('tokens.name')} extra={t('tokens.nameHint')} rules={[zodRule(PersonalTokenNameSchema, t, 'field.purpose')]}>
          <Input maxLength={60} autoComplete="off" data-testid="token-name" />
        </Form.Item>
        <Form.Item name="expiresInDays" label={t('tokens.expiry')}>
          <Select
            data-testid="token-expiry"
            options={PERSONAL_TOKEN_EXPIRY_CHOICES.map((d) => ({ value: d, label: d === 0 ? t('tokens.never') : t('tokens.days', { count: d }) }))}
          />
        </Form.Item>
      </Form>
    </MakeModal>
  );
}

function MadeTokenModal({ made, onClose }: { made: Made | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const example = made ? rExample(user.userName, made.Secret) : '';
  return (
    <Modal
      open={made !== null}
      title={t('tokens.madeTitle', { name: made?.Name ?? '' })}
      onCancel={onClose}
      footer={[
        <Button key="ok" type="primary" onClick={onClose} data-testid="token-made-close">
          {t('tokens.done')}
        </Button>,
      ]}
      maskClosable={false}
      width={640}
      destroyOnHidden
    >
      <Alert type="warning" showIcon message={t('tokens.once')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph copyable={{ text: made?.Secret ?? '' }} code style={{ fontSize: 15, wordBreak: 'break-all' }} data-testid="token-secret">
        {made?.Secret}
      </Typography.Paragraph>
      <Typography.Paragraph>{t('tokens.howTo', { user: user.userName })}</Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: example }}>
        <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }} data-testid="token-r-example">
          {example}
        </pre>
      </Typography.Paragraph>
    </Modal>
  );
}
