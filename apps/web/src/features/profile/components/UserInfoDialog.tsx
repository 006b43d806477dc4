import { LoadingOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { NicknameSchema, truncateDisplay } from '@wildtrack/contract';
import { App, Avatar, Button, Form, Input, Modal, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadImage } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { useSession } from '../../../lib/session';
import { useModifyInfo } from '../api/useProfile';
import { PICTURE_ACCEPT, pictureGate } from './pictures';
import './profile.css';

interface Values {
  nickName: string;
}

/**
 * The user-info dialog (§2.4 User info): the nickname and the avatar. A chosen picture is uploaded at
 * once (Image/Upload) and shown; Save sends the nickname and that picture (User/ModifyInfo), and the
 * server makes the avatar, a thumbnail of height 100. Cancel resets the form: the nickname and the
 * avatar go back to the stored ones.
 */
export function UserInfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { user } = useSession();
  const [form] = Form.useForm<Values>();
  const [picture, setPicture] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const save = useModifyInfo();

  const reset = (): void => {
    form.resetFields();
    setPicture(null);
  };
  const cancel = (): void => {
    reset();
    onClose();
  };

  const submit = async (): Promise<void> => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await save.mutateAsync({ nickName: NicknameSchema.parse(values.nickName), image: picture ?? '' });
    } catch {
      return; // the client has shown the refusal
    }
    void message.success(t('profile.saved'));
    setPicture(null);
    onClose();
  };

  const shown = picture ?? (user.imgUrl || undefined);
  return (
    <Modal
      open={open}
      title={t('layout.userInfo')}
      onCancel={cancel}
      destroyOnHidden
      width={440}
      footer={[
        <Button key="cancel" onClick={cancel} data-testid="profile-cancel">
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={save.isPending} disabled={uploading} onClick={() => void submit()} data-testid="profile-save">
          {t('common.save')}
        </Button>,
      ]}
    >
      <Form form={form} name="profile" layout="vertical" initialValues={{ nickName: user.nickName || user.userName }} onFinish={() => void submit()}>
        <Form.Item label={t('profile.avatar')} extra={t('profile.avatarHint')}>
          <Space size={16} align="center">
            <Avatar size={72} src={shown} icon={shown ? undefined : <UserOutlined />} data-testid="profile-avatar" alt={t('profile.avatar')} />
            <Upload
              accept={PICTURE_ACCEPT}
              showUploadList={false}
              beforeUpload={pictureGate(t, (text) => void message.error(text))}
              customRequest={({ file, onSuccess, onError }) => {
                setUploading(true);
                uploadImage(file as File, t('profile.avatarDescription'))
                  .then((url) => {
                    setPicture(url);
                    onSuccess?.({ Url: url });
                  })
                  .catch((e: unknown) => onError?.(e instanceof Error ? e : new Error(String(e))))
                  .finally(() => setUploading(false));
              }}
            >
              <Button icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={uploading} data-testid="profile-avatar-upload">
                {t('profile.chooseAvatar')}
              </Button>
            </Upload>
          </Space>
        </Form.Item>
        <Form.Item name="nickName" label={t('profile.nickName')} rules={[zodRule(NicknameSchema, t, 'field.nickName')]}>
          <Input maxLength={64} autoComplete="nickname" data-testid="profile-nickname" />
        </Form.Item>
        <Form.Item noStyle shouldUpdate>
          {() => (
            <Typography.Text type="secondary" data-testid="profile-nickname-shown">
              {t('profile.shownAs', { name: truncateDisplay(String(form.getFieldValue('nickName') ?? '').trim() || user.userName) })}
            </Typography.Text>
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}
