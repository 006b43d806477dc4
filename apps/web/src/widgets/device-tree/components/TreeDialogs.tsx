import { FolderNameSchema, RemarkNameSchema } from '@wildtrack/contract';
import { Alert, Empty, Form, Input, Modal, Spin, Tree, Typography, type InputRef } from 'antd';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFocusOnOpen } from '../../../components/useFocusOnOpen';
import { isApiError, isIgnorable } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { useFolderTree } from '../api';
import { moveTargets } from '../model';

/** The server's refusal, kept in the dialog (the client has already shown it as a warning too). */
function refusalText(error: unknown): string | null {
  if (!error || isIgnorable(error)) return null;
  return isApiError(error) ? (error.info.msg ?? error.message) : error instanceof Error ? error.message : String(error);
}

interface NameDialogProps {
  open: boolean;
  title: string;
  label: string;
  initial: string;
  kind: 'folder' | 'remark';
  /** What the name belongs to, shown above the field (the parent folder, the device). */
  context?: string | undefined;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}

/** Folder add/rename and remark name (§2.4): one field checked by the contract's schema. */
export function NameDialog({ open, title, label, initial, kind, context, onSubmit, onClose }: NameDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  // The form's name prefixes its fields' ids: unique per dialog, as the tree and the details each hold one.
  const formName = `${kind}Name${useId().replace(/[^\w-]/g, '')}`;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const schema = kind === 'folder' ? FolderNameSchema : RemarkNameSchema;
  const [firstField, focusFirst] = useFocusOnOpen<InputRef>();

  // Each opening starts from the item's current name (set at once, not after the opening animation).
  useEffect(() => {
    if (open) form.setFields([{ name: 'name', value: initial, errors: [] }]);
  }, [open, initial, form]);

  const close = (): void => {
    setError(null);
    onClose();
  };

  const submit = async (): Promise<void> => {
    const { name } = await form.validateFields();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(schema.parse(name));
      close();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const refusal = refusalText(error);
  return (
    <Modal
      open={open}
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={close}
      confirmLoading={busy}
      forceRender
      afterOpenChange={focusFirst}
      data-testid={`${kind}-name-dialog`}
    >
      {context ? (
        <Typography.Paragraph type="secondary" className="wt-dialog-context">
          {context}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} name={formName} layout="vertical" initialValues={{ name: initial }} onFinish={() => void submit()}>
        <Form.Item
          name="name"
          label={label}
          rules={[zodRule(schema, t, kind === 'folder' ? 'field.name' : 'field.remarkName')]}
          required={kind === 'folder'}
        >
          <Input autoFocus ref={firstField} maxLength={40} showCount allowClear={kind === 'remark'} />
        </Form.Item>
      </Form>
      {refusal ? <Alert type="warning" showIcon title={refusal} /> : null}
    </Modal>
  );
}

interface MoveDialogProps {
  open: boolean;
  title: string;
  /** The folder being moved (left out of the targets with everything below it). */
  moving?: string | undefined;
  /** Where the item is now (shown, not selectable). */
  current?: string | undefined;
  onSubmit: (folderId: string) => Promise<unknown>;
  onClose: () => void;
}

/** The move-to folder picker (§2.4): the organisation's folders, without the experience folder. */
export function MoveDialog({ open, title, moving, current, onSubmit, onClose }: MoveDialogProps) {
  const { t } = useTranslation();
  const folders = useFolderTree(open);
  const [target, setTarget] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const treeData = useMemo(
    () => (folders.data ? moveTargets(folders.data.Folders, { moving, current, rootLabel: t('tree.root') }) : []),
    [folders.data, moving, current, t],
  );
  const allKeys = useMemo(() => {
    const keys: string[] = [];
    const walk = (nodes: typeof treeData): void => {
      for (const n of nodes) {
        keys.push(n.key);
        walk(n.children);
      }
    };
    walk(treeData);
    return keys;
  }, [treeData]);

  const submit = async (): Promise<void> => {
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(target);
      close();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const close = (): void => {
    setTarget(null);
    setError(null);
    onClose();
  };

  const refusal = refusalText(error);
  return (
    <Modal
      open={open}
      title={title}
      okText={t('tree.moveHere')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !target }}
      onOk={() => void submit()}
      onCancel={close}
      confirmLoading={busy}
      destroyOnHidden
      data-testid="move-dialog"
    >
      <Typography.Paragraph type="secondary">{t('tree.moveHint')}</Typography.Paragraph>
      <div className="wt-move-picker">
        {folders.isPending ? (
          <Spin />
        ) : folders.isError ? (
          <Alert type="error" showIcon title={t('tree.foldersError')} />
        ) : treeData.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <Tree
            treeData={treeData}
            defaultExpandedKeys={allKeys}
            selectedKeys={target ? [target] : []}
            onSelect={(keys) => setTarget(keys.length ? String(keys[0]) : null)}
            blockNode
            virtual
            height={320}
          />
        )}
      </div>
      {refusal ? <Alert type="warning" showIcon title={refusal} style={{ marginTop: 12 }} /> : null}
    </Modal>
  );
}
