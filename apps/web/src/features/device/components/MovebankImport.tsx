import { CloudUploadOutlined, UploadOutlined } from '@ant-design/icons';
import { ROOT_FOLDER_ID, type MovebankImportJob, type MovebankImportReportData } from '@wildtrack/contract';
import { Alert, Button, Descriptions, Form, Modal, Progress, Space, Spin, Table, TreeSelect, Typography, Upload, type UploadFile } from 'antd';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, isIgnorable } from '../../../lib/api';
import { folderLabel, useDeviceTree, type FolderEntry } from '../../../widgets/device-tree';
import {
  isActive,
  useCancelMovebankImport,
  useImportedRefresh,
  useMovebankImport,
  useMovebankImports,
  useStartMovebankImport,
} from '../api/movebank';

/** The server's refusal, kept in the dialog (the client has already shown it as a warning too). */
function refusalText(error: unknown): string | null {
  if (!error || isIgnorable(error)) return null;
  return isApiError(error) ? (error.info.msg ?? error.message) : error instanceof Error ? error.message : String(error);
}

const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(bytes < 10e6 ? 2 : 1)} MB`;

export interface FolderOption {
  value: string;
  title: string;
  children: FolderOption[];
}

/** The folders an import may go to: the organisation's root and its folders (never the experience or shared ones). */
export function folderOptions(root: FolderEntry | undefined, t: (key: string) => string): FolderOption[] {
  const walk = (f: FolderEntry): FolderOption => ({ value: f.id, title: folderLabel(f, t), children: f.folders.filter((c) => c.kind === 'org').map(walk) });
  return root ? [walk(root)] : [];
}

/**
 * Which import the dialog shows and whether it is open, kept outside the component: the button lives
 * in the toolbar and in the empty page of an organisation without devices, and an import that creates
 * the first devices swaps one page for the other while its report is on screen. Also the imports whose
 * end already refreshed the tree, and those left with "Import another file".
 */
interface DialogState {
  open: boolean;
  jobId: string | null;
}
let dialogState: DialogState = { open: false, jobId: null };
const listeners = new Set<() => void>();
const refreshed = new Set<string>();
const dismissed = new Set<string>();
function setDialogState(next: Partial<DialogState>): void {
  dialogState = { ...dialogState, ...next };
  for (const l of listeners) l();
}
function useDialogState(): DialogState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => dialogState,
  );
}

/** For tests: a fresh page. */
export function resetMovebankImportDialog(): void {
  dialogState = { open: false, jobId: null };
  refreshed.clear();
  dismissed.clear();
}

/**
 * "Import Movebank file" on /device (issue 10 item 7): the toolbar button and its dialog. A Movebank CSV
 * and its optional reference data are uploaded into a folder (upload progress), then the server imports
 * them in the background: the progress bar reads the job every half second (rows read, % of the file,
 * rows/s), Cancel stops it, and the report ends it. The job lives on the server: after a reload the
 * dialog finds a running import again.
 */
export function MovebankImport({ folderId }: { folderId: string | null }) {
  const { t } = useTranslation();
  const { open, jobId } = useDialogState();
  const setJobId = (id: string | null): void => setDialogState({ jobId: id });
  const job = useMovebankImport(jobId);
  const running = isActive(job.data);

  return (
    <>
      <Button icon={<CloudUploadOutlined />} onClick={() => setDialogState({ open: true })} data-testid="movebank-import-open">
        {running && job.data ? t('movebankImport.buttonRunning', { percent: Math.floor(job.data.Percent) }) : t('movebankImport.button')}
      </Button>
      <ImportDialog open={open} onClose={() => setDialogState({ open: false })} folderId={folderId} jobId={jobId} setJobId={setJobId} job={job.data} jobError={job.error} />
    </>
  );
}

interface DialogProps {
  open: boolean;
  onClose: () => void;
  folderId: string | null;
  jobId: string | null;
  setJobId: (id: string | null) => void;
  job: MovebankImportJob | undefined;
  jobError: unknown;
}

function ImportDialog({ open, onClose, folderId, jobId, setJobId, job, jobError }: DialogProps) {
  const { t } = useTranslation();
  const tree = useDeviceTree();
  const list = useMovebankImports(open && jobId === null);
  const start = useStartMovebankImport();
  const cancel = useCancelMovebankImport();
  const refresh = useImportedRefresh();
  const [form] = Form.useForm<{ folderId: string }>();
  const [file, setFile] = useState<UploadFile[]>([]);
  const [reference, setReference] = useState<UploadFile[]>([]);
  const [sent, setSent] = useState<{ sent: number; total: number } | null>(null);
  const abort = useRef<AbortController | null>(null);

  const root = tree.data?.top.find((f) => f.kind === 'root');
  const options = useMemo(() => folderOptions(root, t), [root, t]);
  const target = folderId && (folderId === ROOT_FOLDER_ID || tree.data?.folderById.get(folderId)?.kind === 'org') ? folderId : ROOT_FOLDER_ID;

  // After a reload: the organisation's import still running is shown again (not one the user has
  // already seen and left with "Import another file": the list may be older than its end).
  useEffect(() => {
    if (jobId !== null || !list.data) return;
    const active = list.data.find((j) => isActive(j) && !dismissed.has(j.IdStr));
    if (active) setJobId(active.IdStr);
  }, [list.data, jobId, setJobId]);

  // An import that stored something refreshes the tree and the lists once it ends.
  useEffect(() => {
    if (!job || isActive(job) || refreshed.has(job.IdStr)) return;
    refreshed.add(job.IdStr);
    if (job.Stored > 0) void refresh();
  }, [job, refresh]);

  const submit = async (): Promise<void> => {
    const values = await form.validateFields();
    const chosen = file[0]?.originFileObj;
    if (!chosen) return;
    abort.current = new AbortController();
    setSent({ sent: 0, total: chosen.size });
    try {
      const started = await start.mutateAsync({
        folderId: values.folderId,
        file: chosen,
        reference: reference[0]?.originFileObj,
        onProgress: (s, total) => setSent({ sent: s, total }),
        signal: abort.current.signal,
      });
      setJobId(started.IdStr);
      setFile([]);
      setReference([]);
    } catch {
      // shown below from start.error
    } finally {
      setSent(null);
      abort.current = null;
    }
  };

  const again = (): void => {
    if (jobId !== null) dismissed.add(jobId);
    start.reset();
    cancel.reset();
    setJobId(null);
  };

  const uploading = start.isPending;
  const refusal = refusalText(start.error) ?? refusalText(cancel.error) ?? refusalText(jobError);
  const pickerProps = (files: UploadFile[], set: (f: UploadFile[]) => void) => ({
    // Movebank's and Env-DATA's deliveries: the CSV, gzipped, or a zip of it (the server reads all three)
    accept: '.csv,.gz,.zip,text/csv,application/gzip,application/zip',
    maxCount: 1,
    fileList: files,
    beforeUpload: () => false,
    onChange: ({ fileList }: { fileList: UploadFile[] }) => set(fileList.slice(-1)),
    disabled: uploading,
  });

  let footer: React.ReactNode;
  if (uploading) {
    footer = (
      <Button danger onClick={() => abort.current?.abort()} data-testid="movebank-upload-cancel">
        {t('movebankImport.cancelUpload')}
      </Button>
    );
  } else if (jobId !== null) {
    footer = (
      <Space>
        {job && isActive(job) ? (
          <Button danger loading={cancel.isPending} onClick={() => cancel.mutate(job.IdStr)} data-testid="movebank-import-cancel">
            {t('movebankImport.cancel')}
          </Button>
        ) : (
          <Button onClick={again} data-testid="movebank-import-again">
            {t('movebankImport.again')}
          </Button>
        )}
        <Button type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      </Space>
    );
  } else {
    footer = (
      <Space>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="primary" disabled={file.length === 0} onClick={() => void submit().catch(() => undefined)} data-testid="movebank-import-start">
          {t('movebankImport.start')}
        </Button>
      </Space>
    );
  }

  return (
    <Modal open={open} title={t('movebankImport.title')} onCancel={onClose} footer={footer} width={760} destroyOnHidden rootClassName="wt-movebank-import">
      {refusal ? <Alert type="error" showIcon message={refusal} className="wt-import-alert" data-testid="movebank-import-error" /> : null}
      {jobId !== null ? (
        job ? (
          <JobView job={job} />
        ) : (
          <Spin />
        )
      ) : list.isPending && open ? (
        <Spin tip={t('common.loading')}>
          <div style={{ height: 80 }} />
        </Spin>
      ) : (
        <>
          {list.isError ? <Alert type="warning" showIcon message={t('movebankImport.listError')} className="wt-import-alert" /> : null}
          <Typography.Paragraph type="secondary">{t('movebankImport.intro')}</Typography.Paragraph>
          <Form form={form} name="movebankImport" layout="vertical" initialValues={{ folderId: target }}>
            <Form.Item name="folderId" label={t('movebankImport.folder')} extra={t('movebankImport.folderHint')} rules={[{ required: true, message: t('movebankImport.folderRequired') }]}>
              <TreeSelect treeData={options} treeDefaultExpandAll disabled={uploading} data-testid="movebank-import-folder" popupMatchSelectWidth autoFocus />
            </Form.Item>
            <Form.Item label={t('movebankImport.file')} required>
              <div data-testid="movebank-import-file">
                <Upload {...pickerProps(file, setFile)}>
                  <Button icon={<UploadOutlined />} disabled={uploading}>
                    {t('movebankImport.choose')}
                  </Button>
                </Upload>
              </div>
            </Form.Item>
            <Form.Item label={t('movebankImport.reference')} extra={t('movebankImport.referenceHint')}>
              <div data-testid="movebank-import-reference">
                <Upload {...pickerProps(reference, setReference)}>
                  <Button icon={<UploadOutlined />} disabled={uploading}>
                    {t('movebankImport.choose')}
                  </Button>
                </Upload>
              </div>
            </Form.Item>
          </Form>
          {sent ? (
            <div data-testid="movebank-upload-progress">
              <Typography.Text>{t('movebankImport.uploading', { sent: megabytes(sent.sent), total: megabytes(sent.total) })}</Typography.Text>
              <Progress percent={sent.total > 0 ? Math.floor((100 * sent.sent) / sent.total) : 0} status="active" />
            </div>
          ) : null}
        </>
      )}
    </Modal>
  );
}

function JobView({ job }: { job: MovebankImportJob }) {
  const { t } = useTranslation();
  const active = isActive(job);
  const status = job.Status === 'done' ? 'success' : job.Status === 'failed' || job.Status === 'interrupted' ? 'exception' : active ? 'active' : 'normal';
  return (
    <div data-testid="movebank-import-job" data-status={job.Status}>
      <Typography.Paragraph>
        <Typography.Text strong>{job.FileName}</Typography.Text>
        {job.ReferenceFileName ? <Typography.Text type="secondary">{` + ${job.ReferenceFileName}`}</Typography.Text> : null}
        <Typography.Text type="secondary">{` · ${megabytes(job.Size)} · ${t('movebankImport.startedBy', { name: job.UserName || '—', time: job.CreateTime })}`}</Typography.Text>
      </Typography.Paragraph>
      <Progress percent={Math.floor(job.Percent * 10) / 10} status={status} data-testid="movebank-import-progress" />
      <Descriptions
        size="small"
        column={4}
        className="wt-import-stats"
        items={[
          { key: 'rows', label: t('movebankImport.rowsRead'), children: <span data-testid="movebank-import-rows">{job.Rows.toLocaleString()}</span> },
          { key: 'bytes', label: t('movebankImport.bytesRead'), children: `${job.Percent.toFixed(1)}%` },
          { key: 'rate', label: t('movebankImport.rate'), children: job.RowsPerSecond.toLocaleString() },
          { key: 'stored', label: t('movebankImport.storedSoFar'), children: job.Stored.toLocaleString() },
        ]}
      />
      {job.Status === 'queued' ? <Alert type="info" showIcon message={t('movebankImport.queued')} /> : null}
      {job.Status === 'running' && job.CancelRequested ? <Alert type="info" showIcon message={t('movebankImport.cancelling')} /> : null}
      {!active ? <Outcome job={job} /> : null}
    </div>
  );
}

function Outcome({ job }: { job: MovebankImportJob }) {
  const { t } = useTranslation();
  const report = job.Report;
  const skipped = report ? report.Skipped.reduce((n, s) => n + s.Count, 0) : 0;
  let alert: React.ReactNode;
  if (job.Status === 'done' && report) {
    alert = (
      <Alert
        type={skipped > 0 ? 'warning' : 'success'}
        showIcon
        message={t('movebankImport.status.done')}
        description={t('movebankImport.doneText', { stored: report.Stored.toLocaleString(), duplicates: report.Duplicates.toLocaleString(), skipped: skipped.toLocaleString() })}
      />
    );
  } else if (job.Status === 'cancelled') {
    alert = <Alert type="info" showIcon message={t('movebankImport.status.cancelled', { stored: job.Stored.toLocaleString() })} />;
  } else {
    alert = <Alert type="error" showIcon message={t(`movebankImport.status.${job.Status === 'interrupted' ? 'interrupted' : 'failed'}`)} description={job.Error} />;
  }
  return (
    <div className="wt-import-outcome" data-testid="movebank-import-report">
      {alert}
      {report ? <Report report={report} /> : null}
    </div>
  );
}

interface ExampleRow {
  key: string;
  reason: string;
  count: number;
  span: number;
  line: number | null;
  eventId: string;
  value: string;
}

function exampleRows(lines: MovebankImportReportData['Skipped']): ExampleRow[] {
  return lines.flatMap((l, i) => {
    const examples = l.Examples.length > 0 ? l.Examples : [{ Line: 0, EventId: '', Value: '' }];
    return examples.map((e, j) => ({
      key: `${i}-${j}`,
      reason: l.Reason,
      count: l.Count,
      span: j === 0 ? examples.length : 0,
      line: e.Line > 0 ? e.Line : null,
      eventId: e.EventId,
      value: e.Value,
    }));
  });
}

function ExampleTable({ lines, testId }: { lines: MovebankImportReportData['Skipped']; testId: string }) {
  const { t } = useTranslation();
  return (
    <Table<ExampleRow>
      size="small"
      pagination={false}
      bordered
      data-testid={testId}
      dataSource={exampleRows(lines)}
      columns={[
        {
          title: t('movebankImport.col.reason'),
          dataIndex: 'reason',
          width: '42%',
          onCell: (r) => ({ rowSpan: r.span }),
          render: (_v, r) => (
            <span>
              {r.reason} <Typography.Text type="secondary">{`(${r.count.toLocaleString()})`}</Typography.Text>
            </span>
          ),
        },
        { title: t('movebankImport.col.line'), dataIndex: 'line', width: 80, render: (v: number | null) => v ?? '—' },
        { title: t('movebankImport.col.eventId'), dataIndex: 'eventId', render: (v: string) => v || '—' },
        { title: t('movebankImport.col.value'), dataIndex: 'value', render: (v: string) => <span className="wt-mono">{v || '—'}</span> },
      ]}
    />
  );
}

function Report({ report }: { report: MovebankImportReportData }) {
  const { t } = useTranslation();
  const skipped = report.Skipped.reduce((n, s) => n + s.Count, 0);
  const notices = report.Notices.reduce((n, s) => n + s.Count, 0);
  return (
    <>
      <Descriptions
        size="small"
        bordered
        column={3}
        className="wt-import-counts"
        items={[
          { key: 'rows', label: t('movebankImport.report.rows'), children: report.Rows.toLocaleString() },
          { key: 'stored', label: t('movebankImport.report.stored'), children: <span data-testid="movebank-report-stored">{report.Stored.toLocaleString()}</span> },
          { key: 'duplicates', label: t('movebankImport.report.duplicates'), children: report.Duplicates.toLocaleString() },
          { key: 'withoutPosition', label: t('movebankImport.report.withoutPosition'), children: report.WithoutPosition.toLocaleString() },
          { key: 'markedInvalid', label: t('movebankImport.report.markedInvalid'), children: report.MarkedInvalid.toLocaleString() },
          { key: 'outOfRange', label: t('movebankImport.report.outOfRange'), children: report.OutOfRange.toLocaleString() },
          {
            key: 'marks',
            label: t('movebankImport.report.marksChanged'),
            children: t('movebankImport.report.marksText', { marked: report.MarksChanged.Marked, unmarked: report.MarksChanged.Unmarked }),
          },
          {
            key: 'bursts',
            label: t('movebankImport.report.bursts'),
            children: t('movebankImport.report.burstsText', { stored: report.Bursts.Stored.toLocaleString(), samples: report.Bursts.Samples.toLocaleString() }),
          },
          {
            key: 'devices',
            label: t('movebankImport.report.devices'),
            children: t('movebankImport.report.devicesText', { created: report.Devices.Created, reused: report.Devices.Reused }),
          },
          { key: 'seconds', label: t('movebankImport.report.seconds'), children: `${report.Seconds} s` },
          ...(report.Delimiter !== ','
            ? [{ key: 'delimiter', label: t('movebankImport.report.delimiter'), children: report.Delimiter === ';' ? t('movebankImport.report.semicolon') : t('movebankImport.report.tab') }]
            : []),
        ]}
      />
      <Typography.Title level={5} className="wt-import-section">
        {t('movebankImport.skipped', { count: skipped })}
      </Typography.Title>
      {report.Skipped.length > 0 ? <ExampleTable lines={report.Skipped} testId="movebank-report-skipped" /> : <Typography.Text type="secondary">{t('movebankImport.noSkipped')}</Typography.Text>}
      {report.Notices.length > 0 ? (
        <>
          <Typography.Title level={5} className="wt-import-section">
            {t('movebankImport.notices', { count: notices })}
          </Typography.Title>
          <ExampleTable lines={report.Notices} testId="movebank-report-notices" />
        </>
      ) : null}
    </>
  );
}
