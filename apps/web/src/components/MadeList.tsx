import { PlusOutlined } from '@ant-design/icons';
import { Button, Modal, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A dialog's list of what its user makes (members, access tokens): a line saying what they are beside the
 * "new" button, then the table (loading while it reads, its empty text when there is none); the dialogs that
 * make and show a new one go in `children`.
 */
export function MadeList<T extends object>(p: {
  testId: string;
  about: string;
  newLabel: string;
  newTestId: string;
  onNew: () => void;
  rowKey: keyof T & string;
  columns: TableColumnsType<T>;
  rows: readonly T[];
  loading: boolean;
  scrollX: number;
  emptyText: string;
  children?: ReactNode;
}) {
  return (
    <div data-testid={p.testId}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Text type="secondary">{p.about}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={p.onNew} data-testid={p.newTestId}>
          {p.newLabel}
        </Button>
      </Space>
      <Table<T>
        rowKey={p.rowKey}
        size="small"
        columns={p.columns}
        dataSource={p.rows as T[]}
        loading={p.loading}
        pagination={false}
        scroll={{ x: p.scrollX }}
        locale={{ emptyText: p.emptyText }}
      />
      {p.children}
    </div>
  );
}

/** The dialog that makes one (a new member, a new token): its icon and title, the form, create and cancel. */
export function MakeModal(p: { open: boolean; icon: ReactNode; title: string; okText: string; okId: string; pending: boolean; onOk: () => void; onCancel: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={p.open}
      title={
        <Space>
          {p.icon}
          {p.title}
        </Space>
      }
      onCancel={p.onCancel}
      okText={p.okText}
      cancelText={t('common.cancel')}
      onOk={p.onOk}
      confirmLoading={p.pending}
      okButtonProps={{ id: p.okId }}
      destroyOnHidden
      width={460}
    >
      {p.children}
    </Modal>
  );
}
