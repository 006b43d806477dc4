import { PlusOutlined } from '@ant-design/icons';
import { FEEDBACK_QA_MAX, IMAGE_UPLOAD_MAX_COUNT, SubmitAdviceBody } from '@wildtrack/contract';
import { App, Button, Form, Input, Modal, Upload, type UploadFile } from 'antd';
import { useTranslation } from 'react-i18next';
import { uploadImage } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { useSession } from '../../../lib/session';
import { useSubmitAdvice } from '../api/useProfile';
import { keepSucceeded, PICTURE_ACCEPT, pictureGate, uploadedUrl } from './pictures';
import './profile.css';

interface Values {
  phone: string;
  email: string;
  qa: string;
  pictures: UploadFile[];
}

/**
 * The feedback dialog (§2.4 Feedback, §5): phone, e-mail (required, pattern-checked), the question
 * (required) and up to 6 photos, each uploaded when chosen (Image/Upload); only those the server took
 * (Code 1000) are sent, failed ones leave the list. Advice/Submit stores it for the operators.
 */
export function FeedbackDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { user } = useSession();
  const [form] = Form.useForm<Values>();
  const submitAdvice = useSubmitAdvice();
  const pictures = Form.useWatch('pictures', form) ?? [];
  const uploading = pictures.some((f) => f.status === 'uploading');

  const submit = async (): Promise<void> => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const urls = (values.pictures ?? []).map(uploadedUrl).filter((u): u is string => Boolean(u));
    try {
      await submitAdvice.mutateAsync({ email: values.email, phone: values.phone ?? '', qa: values.qa, pictures: urls.join('#') });
    } catch {
      return; // the client has shown the refusal
    }
    void message.success(t('feedback.sent'));
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('layout.feedback')}
      onCancel={onClose}
      destroyOnHidden
      width={560}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button key="send" type="primary" loading={submitAdvice.isPending} disabled={uploading} onClick={() => void submit()} data-testid="feedback-send">
          {t('feedback.send')}
        </Button>,
      ]}
    >
      <Form
        form={form}
        name="feedback"
        layout="vertical"
        initialValues={{ phone: user.phone, email: user.email, qa: '', pictures: [] }}
        onFinish={() => void submit()}
      >
        <Form.Item name="phone" label={t('feedback.phone')} rules={[zodRule(SubmitAdviceBody.shape.phone, t, 'field.phone')]}>
          <Input inputMode="tel" autoComplete="tel" maxLength={11} data-testid="feedback-phone" />
        </Form.Item>
        <Form.Item name="email" label={t('feedback.email')} required rules={[zodRule(SubmitAdviceBody.shape.email, t, 'field.email')]}>
          <Input type="email" autoComplete="email" data-testid="feedback-email" />
        </Form.Item>
        <Form.Item name="qa" label={t('feedback.qa')} required rules={[zodRule(SubmitAdviceBody.shape.qa, t, 'field.qa')]}>
          <Input.TextArea rows={4} maxLength={FEEDBACK_QA_MAX} showCount placeholder={t('feedback.qaPlaceholder')} data-testid="feedback-qa" />
        </Form.Item>
        <Form.Item
          name="pictures"
          label={t('feedback.pictures')}
          valuePropName="fileList"
          getValueFromEvent={(e: { fileList: UploadFile[] }) => keepSucceeded(e.fileList)}
          extra={t('feedback.picturesHint', { count: IMAGE_UPLOAD_MAX_COUNT })}
        >
          <Upload
            listType="picture-card"
            accept={PICTURE_ACCEPT}
            multiple
            maxCount={IMAGE_UPLOAD_MAX_COUNT}
            beforeUpload={pictureGate(t, (text) => void message.error(text))}
            customRequest={({ file, onSuccess, onError }) => {
              uploadImage(file as File, t('feedback.pictureDescription'))
                .then((url) => onSuccess?.({ Url: url }))
                .catch((e: unknown) => onError?.(e instanceof Error ? e : new Error(String(e))));
            }}
            data-testid="feedback-pictures"
          >
            {pictures.length >= IMAGE_UPLOAD_MAX_COUNT ? null : (
              <button type="button" className="wt-profile-upload">
                <PlusOutlined />
                <div>{t('feedback.addPicture')}</div>
              </button>
            )}
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
