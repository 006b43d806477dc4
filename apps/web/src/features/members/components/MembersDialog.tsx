import { UserAddOutlined } from '@ant-design/icons';
import { AccountNameSchema, EmailSchema, NicknameSchema, PhoneSchema, type Member } from '@wildtrack/contract';
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Space, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ErrorState } from '../../../components/ErrorState';
import { MadeList, MakeModal } from '../../../components/MadeList';
import { zodRule } from '../../../lib/form';
import { useZone } from '../../../lib/session';
import { type TemporaryPassword, useCreateMember, useMemberList, useResetMemberPassword, useSetMemberEnabled } from '../api/useMembers';

/** Optional fields: empty, or the contract's rule. */
const optional = (schema: z.ZodType) => z.union([z.literal(''), schema]);

interface NewMember {
  userName: string;
  nickName: string;
  emailAddress: string;
  phone: string;
}

/**
 * The organisation's members for its primary user (issue 17 item 5): the accounts with their e-mail,
 * phone, switch and last sign-in; a new account or a reset gets a temporary password made in this
 * browser and sent sealed (no answer carries it), shown here once; its owner must change it at the next sign-in. The server refuses all of it to anyone else.
 */
export function MembersDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('members.title')} onCancel={onClose} footer={null} destroyOnHidden width={1040}>
      <MembersBody />
    </Modal>
  );
}

function MembersBody() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const zone = useZone();
  const list = useMemberList(zone, true);
  const setEnabled = useSetMemberEnabled();
  const reset = useResetMemberPassword();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<TemporaryPassword | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const toggle = (m: Member, on: boolean): void => {
    const run = async (): Promise<void> => {
      setBusy(m.UserIdStr);
      try {
        await setEnabled.mutateAsync({ memberId: m.UserIdStr, enabled: on ? 1 : 0, timeZone: zone });
      } catch {
        // the client has shown the refusal; the switch stays as the list says
      } finally {
        setBusy(null);
      }
    };
    if (on) void run();
    else
      modal.confirm({
        title: t('members.disableTitle', { name: m.UserName }),
        content: t('members.disableContent'),
        okText: t('members.disable'),
        okButtonProps: { danger: true, id: 'member-disable-ok' },
        cancelText: t('common.cancel'),
        onOk: run,
      });
  };

  const resetPassword = async (m: Member): Promise<void> => {
    try {
      setShown(await reset.mutateAsync({ memberId: m.UserIdStr, timeZone: zone }));
    } catch {
      // shown by the client
    }
  };

  const columns: TableColumnsType<Member> = [
    {
      title: t('members.account'),
      dataIndex: 'UserName',
      width: 260,
      // the name never breaks inside; the tags wrap below it when the column is narrow
      render: (name: string, m) => (
        <Space size={4} wrap>
          <Typography.Text strong={m.IsPrimary} style={{ whiteSpace: 'nowrap' }}>
            {name}
          </Typography.Text>
          {m.IsPrimary ? <Tag color="green">{t('members.primary')}</Tag> : null}
          {m.MustChangePassword ? <Tag color="gold">{t('members.tempPassword')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('members.nickName'), dataIndex: 'NickName', ellipsis: true },
    { title: t('members.email'), dataIndex: 'EMail', render: (v: string) => v || '—', ellipsis: true },
    { title: t('members.phone'), dataIndex: 'Phone', render: (v: string) => v || '—', width: 130 },
    {
      title: t('members.enabled'),
      dataIndex: 'Enabled',
      width: 90,
      render: (v: number, m) => (
        <Switch
          size="small"
          checked={v === 1}
          disabled={m.IsPrimary}
          loading={busy === m.UserIdStr}
          aria-label={t('members.enabledOf', { name: m.UserName })}
          data-testid={`member-enabled-${m.UserName}`}
          onChange={(on) => toggle(m, on)}
        />
      ),
    },
    { title: t('members.lastLogin'), dataIndex: 'LastLoginTime', width: 170, render: (v: string) => v || t('members.never') },
    {
      title: t('members.actions'),
      key: 'actions',
      width: 130,
      render: (_, m) =>
        m.IsPrimary ? null : (
          <Popconfirm
            title={t('members.resetTitle', { name: m.UserName })}
            description={t('members.resetContent')}
            okText={t('members.reset')}
            cancelText={t('common.cancel')}
            okButtonProps={{ id: 'member-reset-ok' }}
            onConfirm={() => resetPassword(m)}
          >
            <Button size="small" data-testid={`member-reset-${m.UserName}`}>
              {t('members.reset')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  if (list.isError && !list.data) return <ErrorState title={t('members.loadError')} error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <MadeList<Member>
      testId="members"
      about={t('members.rights')}
      newLabel={t('members.new')}
      newTestId="member-new"
      onNew={() => setCreating(true)}
      rowKey="UserIdStr"
      columns={columns}
      rows={list.data?.List ?? []}
      loading={list.isFetching}
      scrollX={980}
      emptyText={t('members.empty')}
    >
      <CreateMemberModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(s) => {
          setCreating(false);
          setShown(s);
        }}
      />
      <TemporaryPasswordModal shown={shown} onClose={() => setShown(null)} />
    </MadeList>
  );
}

function CreateMemberModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (s: TemporaryPassword) => void }) {
  const { t } = useTranslation();
  const zone = useZone();
  const [form] = Form.useForm<NewMember>();
  const create = useCreateMember();

  const submit = async (): Promise<void> => {
    let values: NewMember;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      const created = await create.mutateAsync({
        userName: values.userName,
        nickName: values.nickName,
        emailAddress: (values.emailAddress ?? '').trim(),
        phone: (values.phone ?? '').trim(),
        timeZone: zone,
      });
      form.resetFields();
      onCreated(created);
    } catch {
      // the client has shown the server's refusal (a taken account name names the field)
    }
  };

  return (
    <MakeModal
      open={open}
      icon={<UserAddOutlined />}
      title={t('members.new')}
      okText={t('members.create')}
      okId="member-create"
      pending={create.isPending}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
    >
      <Form form={form} name="new-member" layout="vertical" initialValues={{ userName: '', nickName: '', emailAddress: '', phone: '' }} onFinish={() => void submit()}>
        <Form.Item name="userName" required label={t('members.account')} extra={t('members.accountHint')} rules={[zodRule(AccountNameSchema, t, 'field.userName')]}>
          <Input maxLength={30} autoComplete="off" data-testid="member-userName" />
        </Form.Item>
        <Form.Item name="nickName" required label={t('members.nickName')} rules={[zodRule(NicknameSchema, t, 'field.nickName')]}>
          <Input maxLength={64} autoComplete="off" data-testid="member-nickName" />
        </Form.Item>
        <Form.Item name="emailAddress" label={t('members.email')} rules={[zodRule(optional(EmailSchema), t, 'field.emailAddress')]}>
          <Input maxLength={40} autoComplete="off" data-testid="member-email" placeholder={t('members.optional')} />
        </Form.Item>
        <Form.Item name="phone" label={t('members.phone')} rules={[zodRule(optional(PhoneSchema), t, 'field.phone')]}>
          <Input maxLength={11} addonBefore="+86" autoComplete="off" data-testid="member-phone" placeholder={t('members.optional')} />
        </Form.Item>
      </Form>
    </MakeModal>
  );
}

function TemporaryPasswordModal({ shown, onClose }: { shown: TemporaryPassword | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={shown !== null}
      title={t('members.tempTitle', { name: shown?.member.UserName ?? '' })}
      onCancel={onClose}
      footer={[
        <Button key="ok" type="primary" onClick={onClose} data-testid="member-temp-close">
          {t('members.tempDone')}
        </Button>,
      ]}
      maskClosable={false}
      width={460}
      destroyOnHidden
    >
      <Alert type="warning" showIcon message={t('members.tempOnce')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph>{t('members.tempHint', { name: shown?.member.UserName ?? '' })}</Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: shown?.password ?? '' }} code style={{ fontSize: 20 }} data-testid="member-temp-password">
        {shown?.password}
      </Typography.Paragraph>
    </Modal>
  );
}
