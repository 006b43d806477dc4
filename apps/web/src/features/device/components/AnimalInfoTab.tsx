import { DeleteOutlined, PlusOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import {
  Age,
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  BeastInfoSchema,
  BirdInfoSchema,
  CustomFieldSchema,
  formatTime,
  IMAGE_UPLOAD_MAX_COUNT,
  MEASURE_UNIT,
  OtherSpeciesInfoSchema,
  Sex,
  TIME_FORMAT,
  WorkInfoSchema,
  type DeviceDetail,
  type MountInfo,
} from '@wildtrack/contract';
import {
  Alert,
  App,
  Button,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Space,
  Typography,
  Upload,
  type UploadFile,
} from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { isApiError, isIgnorable, uploadImage } from '../../../lib/api';
import { zodRule } from '../../../lib/form';
import { MapBoundary } from '../../../map/MapBoundary';
import { useZone } from '../../../lib/session';
import { MEASURES, toFormValues, toMountInfo, type AnimalFormValues } from '../animalForm';
import { speciesForm, useMountInfo, useSaveMountInfo, type SpeciesForm } from '../api';
import { setAnimalEdits, useBeforeUnloadWhileEdited } from '../unsaved';

const ReleaseMap = lazy(() => import('./ReleaseMap'));

const SCHEMA = { bird: BirdInfoSchema, beast: BeastInfoSchema, other: OtherSpeciesInfoSchema } as const;
const TIMES = ['CaptureTime', 'MountTime', 'ReleaseTime'] as const;

/** The animal-info tab: loads the info of the device's species type and shows the matching form. */
export function AnimalInfoTab({ detail, readOnly }: { detail: DeviceDetail; readOnly: boolean }) {
  const { t } = useTranslation();
  const form = speciesForm(detail.SpeciesType);
  const info = useMountInfo(detail.IMEI, form);
  if (info.isPending) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (info.isError) return <ErrorState title={t('animal.loadError')} error={info.error} onRetry={() => void info.refetch()} />;
  return <AnimalInfoForm key={info.dataUpdatedAt} imei={detail.IMEI} species={form} info={info.data} readOnly={readOnly} />;
}

interface FormProps {
  imei: string;
  species: SpeciesForm;
  info: MountInfo;
  readOnly: boolean;
}

export function AnimalInfoForm({ imei, species, info, readOnly }: FormProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const zone = useZone();
  const [form] = Form.useForm<AnimalFormValues>();
  const measures = MEASURES[species];
  const initial = useMemo(() => toFormValues(info, measures), [info, measures]);
  const save = useSaveMountInfo(species);
  const [refusal, setRefusal] = useState<string | null>(null);
  // Edits not yet saved: leaving the tab, the device or the page asks first (../unsaved).
  useEffect(() => () => setAnimalEdits(false), []);
  useBeforeUnloadWhileEdited();
  const lon = Form.useWatch('ReleaseLon', form) ?? null;
  const lat = Form.useWatch('ReleaseLat', form) ?? null;

  // "Now" in the user's zone, as wall-clock time: nothing after it can be picked.
  const [nowInZone] = useState(() => dayjs(formatTime(Date.now(), zone), TIME_FORMAT));

  const orderRule = (field: (typeof TIMES)[number]): Rule => ({
    validator: async (_r, value: Dayjs | null) => {
      if (!value) return;
      const i = TIMES.indexOf(field);
      const before = TIMES.slice(0, i).map((f) => form.getFieldValue(f) as Dayjs | null).filter((d): d is Dayjs => !!d);
      if (before.some((b) => value.isBefore(b))) throw new Error(t(`animal.order.${field}`));
    },
  });

  const duplicateRule = (index: number): Rule => ({
    validator: async (_r, value: string | undefined) => {
      const name = (value ?? '').trim().toLowerCase();
      if (!name) return;
      const all = (form.getFieldValue('AdditionalInfo') as { Name?: string }[] | undefined) ?? [];
      if (all.some((f, i) => i !== index && (f?.Name ?? '').trim().toLowerCase() === name)) {
        throw new Error(t('validation.customField.duplicate', { ns: 'contract' }));
      }
    },
  });

  const submit = async (values: AnimalFormValues): Promise<void> => {
    setRefusal(null);
    if ((values.Images ?? []).some((f) => f.status === 'uploading')) {
      message.warning(t('animal.uploading'));
      return;
    }
    const body = toMountInfo(imei, values, measures);
    // The contract's schema is the last word (names non-empty and unique, ranges, lengths).
    const parsed = SCHEMA[species].safeParse(body);
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((issue) => {
          const [head, ...rest] = issue.path as (string | number)[];
          const name = head === 'AnimalInfo' || head === 'WorkInfo' ? rest : [head!, ...rest];
          return { name: name as never, errors: [t(issue.message, { ns: 'contract', defaultValue: issue.message })] };
        }),
      );
      return;
    }
    try {
      await save.mutateAsync(body);
      setAnimalEdits(false);
      message.success(t('common.saved'));
    } catch (e) {
      if (!isIgnorable(e)) setRefusal(isApiError(e) ? (e.info.msg ?? e.message) : String(e));
    }
  };

  const sexOptions = Object.values(Sex).map((v) => ({ value: v, label: t(`animal.sex.${v}`) }));
  const ageOptions = Object.values(Age).map((v) => ({ value: v, label: t(`animal.age.${v}`) }));

  return (
    <Form<AnimalFormValues>
      form={form}
      layout="vertical"
      className="wt-animal-form"
      initialValues={initial}
      disabled={readOnly}
      onFinish={(v) => void submit(v)}
      onValuesChange={() => setAnimalEdits(!readOnly)}
      data-testid="animal-form"
      data-species={species}
      scrollToFirstError
    >
      {readOnly ? null : (
        <Typography.Paragraph type="secondary">{t(`animal.formFor.${species}`)}</Typography.Paragraph>
      )}
      <Typography.Title level={5} className="wt-section-title">
        {t('animal.section.animal')}
      </Typography.Title>
      <Row gutter={16}>
        <Col xs={24} md={12} xl={8}>
          <Form.Item name="Species" label={t('animal.field.Species')}>
            <Input maxLength={80} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <Form.Item name="ScientificName" label={t('animal.field.ScientificName')}>
            <Input maxLength={120} className="wt-italic" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6} xl={3}>
          <Form.Item name="Sex" label={t('animal.field.Sex')}>
            <Select options={sexOptions} data-testid="animal-sex" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6} xl={3}>
          <Form.Item name="Age" label={t('animal.field.Age')}>
            <Select options={ageOptions} data-testid="animal-age" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12} xl={2}>
          <Form.Item name="Weight" label={t('animal.field.Weight')}>
            <InputNumber min={0} step={0.1} style={{ width: '100%' }} suffix="kg" />
          </Form.Item>
        </Col>
      </Row>

      {measures.length > 0 ? (
        <>
          <Typography.Title level={5} className="wt-section-title">
            {t(`animal.section.measures.${species}`, { count: measures.length })}
          </Typography.Title>
          <Row gutter={16} data-testid="measures">
            {measures.map((m) => (
              <Col key={m} xs={12} md={8} xl={6}>
                <Form.Item name={['Measurements', m]} label={t(`measure.${m}`)}>
                  <InputNumber min={0} step={0.1} style={{ width: '100%' }} suffix={MEASURE_UNIT[m]} data-measure={m} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </>
      ) : null}

      <Typography.Title level={5} className="wt-section-title">
        {t('animal.section.work')}
      </Typography.Title>
      <Row gutter={16}>
        {TIMES.map((field) => (
          <Col key={field} xs={24} md={8}>
            <Form.Item name={field} label={t(`animal.field.${field}`)} rules={[orderRule(field)]} dependencies={TIMES.filter((f) => f !== field)}>
              <DatePicker
                showTime
                format={TIME_FORMAT}
                style={{ width: '100%' }}
                showNow={false}
                disabledDate={(d) => d.isAfter(nowInZone, 'day')}
                data-testid={`time-${field}`}
              />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Form.Item name="ReleaseLon" label={t('animal.field.ReleaseLon')} rules={[zodRule(WorkInfoSchema.shape.ReleaseLon, t, 'field.ReleaseLon')]}>
            <InputNumber min={-180} max={180} step={0.000001} style={{ width: '100%' }} suffix="°" />
          </Form.Item>
          <Form.Item name="ReleaseLat" label={t('animal.field.ReleaseLat')} rules={[zodRule(WorkInfoSchema.shape.ReleaseLat, t, 'field.ReleaseLat')]}>
            <InputNumber min={-90} max={90} step={0.000001} style={{ width: '100%' }} suffix="°" />
          </Form.Item>
          <Form.Item name="ReleaseSite" label={t('animal.field.ReleaseSite')}>
            <Input maxLength={120} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={14}>
          <Form.Item label={readOnly ? t('animal.releasePoint') : t('animal.releasePointPick')}>
            <div className="wt-release-map">
              <MapBoundary fallback={<div className="wt-map-fallback">{t('animal.mapUnavailable')}</div>}>
              <Suspense fallback={null}>
                <ReleaseMap
                  lon={typeof lon === 'number' ? lon : null}
                  lat={typeof lat === 'number' ? lat : null}
                  onPick={readOnly ? undefined : (x, y) => form.setFieldsValue({ ReleaseLon: x, ReleaseLat: y })}
                />
              </Suspense>
              </MapBoundary>
            </div>
          </Form.Item>
        </Col>
      </Row>

      <Typography.Title level={5} className="wt-section-title">
        {t('animal.section.photos')}
      </Typography.Title>
      {readOnly && initial.Images.length === 0 ? <Typography.Paragraph type="secondary">{t('animal.noPhotos')}</Typography.Paragraph> : null}
      <Form.Item
        hidden={readOnly && initial.Images.length === 0}
        name="Images"
        valuePropName="fileList"
        getValueFromEvent={(e: { fileList: UploadFile[] }) =>
          // §8 Uploads: only a reply with Code 1000 counts; failed ones leave the list.
          e.fileList.filter((f) => f.status !== 'error').map((f) => (f.status === 'done' && !f.url ? { ...f, url: (f.response as { Url?: string }).Url } : f))
        }
        extra={t('animal.photoHint', { count: IMAGE_UPLOAD_MAX_COUNT, size: AVATAR_MAX_BYTES / 1024 / 1024 })}
      >
        <Upload
          listType="picture-card"
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          maxCount={IMAGE_UPLOAD_MAX_COUNT}
          beforeUpload={(file) => {
            const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
            if (!(AVATAR_TYPES as readonly string[]).includes(ext)) {
              message.error(t('animal.photoType'));
              return Upload.LIST_IGNORE;
            }
            if (file.size > AVATAR_MAX_BYTES) {
              message.error(t('animal.photoSize'));
              return Upload.LIST_IGNORE;
            }
            return true;
          }}
          customRequest={({ file, onSuccess, onError }) => {
            uploadImage(file as File, t('animal.photoDescription', { imei }))
              .then((url) => onSuccess?.({ Url: url }))
              .catch((e: unknown) => onError?.(e instanceof Error ? e : new Error(String(e))));
          }}
          onPreview={(file) => {
            const url = file.url ?? (file.response as { Url?: string } | undefined)?.Url;
            if (url) window.open(url, '_blank', 'noopener');
          }}
          data-testid="photo-upload"
        >
          {readOnly ? null : (
            <button type="button" className="wt-upload-button">
              <PlusOutlined />
              <div>{t('animal.addPhoto')}</div>
            </button>
          )}
        </Upload>
      </Form.Item>

      <Typography.Title level={5} className="wt-section-title">
        {t('animal.section.custom')}
      </Typography.Title>
      <Form.List name="AdditionalInfo">
        {(fields, { add, remove }) => (
          <div data-testid="custom-fields">
            {fields.length === 0 ? <Typography.Paragraph type="secondary">{t('animal.noCustom')}</Typography.Paragraph> : null}
            {fields.map((field) => (
              <div key={field.key} className="wt-custom-row" data-testid="custom-field">
                <Form.Item
                  name={[field.name, 'Name']}
                  rules={[zodRule(CustomFieldSchema.shape.Name, t, 'field.Name'), duplicateRule(field.name)]}
                  dependencies={fields.filter((f) => f.key !== field.key).map((f) => ['AdditionalInfo', f.name, 'Name'])}
                >
                  <Input placeholder={t('animal.customName')} maxLength={40} aria-label={t('animal.customName')} />
                </Form.Item>
                <Form.Item name={[field.name, 'Value']} rules={[zodRule(CustomFieldSchema.shape.Value, t, 'field.Value')]}>
                  <Input placeholder={t('animal.customValue')} maxLength={200} aria-label={t('animal.customValue')} />
                </Form.Item>
                {readOnly ? null : (
                  <Button icon={<DeleteOutlined />} type="text" danger aria-label={t('animal.removeCustom')} onClick={() => remove(field.name)} />
                )}
              </div>
            ))}
            {readOnly ? null : (
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ Name: '', Value: '' })} data-testid="add-custom-field">
                {t('animal.addCustom')}
              </Button>
            )}
          </div>
        )}
      </Form.List>

      {refusal ? <Alert type="warning" showIcon title={refusal} style={{ marginTop: 16 }} data-testid="animal-refusal" /> : null}
      {readOnly ? null : (
        <Space style={{ marginTop: 20 }}>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="save-animal">
            {t('common.save')}
          </Button>
          <Button icon={<UndoOutlined />} onClick={() => form.resetFields()}>
            {t('common.reset')}
          </Button>
        </Space>
      )}
    </Form>
  );
}
