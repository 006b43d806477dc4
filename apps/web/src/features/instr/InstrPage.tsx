import { SendOutlined } from '@ant-design/icons';
import { INSTRUCTIONS_PER_DEVICE_PER_DAY, InstructionRefusalSchema, type DeviceDetail, type InstrSupportName, type InstrType } from '@wildtrack/contract';
import { Alert, App, Button, Card, Empty, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkedImeis, getTreeSelection, setTreeSelection, TreeLoadState, useDeviceTree, useTreeSelection, type DeviceEntry } from '../../widgets/device-tree';
import { InstructionHistory, InstructionStatusTag } from '../../widgets/instructions';
import { useChosenDetails, useExceed, useSend, type SendOutcome } from './api';
import { describeParams } from './describe';
import { InstrFormPanel } from './components/InstrFormPanel';
import { batteryWarning, emptyForm, formIssues, hasAccSensor, missingSupport, paramsOf, supports, typesOf, type InstrForm, type Lack } from './model';
import { clearUnchecked, noteUnchecked, useUnchecked, type Unchecked } from './unchecked';
import './instr.css';

/** Most devices the history lists at once when no device is picked in its filter (the call's own cap). */
const HISTORY_DEVICES_MAX = 500;

interface Chosen {
  entry: DeviceEntry;
  name: string;
  detail: DeviceDetail | undefined;
  lacks: Lack[];
  battery: 'low' | 'high' | null;
}

/** Per device, the server's answer to the last Send: the instructions stored, or why nothing was. */
type DeviceResult = { sent: { type: InstrType; status: 'SENT' }[]; refused: string[] };

/**
 * /instr (§2.1, §5 remote command): the devices checked in the tree (selectable as §6 says; the tree
 * greys out the rest with the reason), the settings to send, and the instruction history. Before Send
 * the devices over today's limit are unchecked with the reason, options a device doesn't support are
 * blocked with the reason, low and high batteries warn, and a summary shows what each device will get.
 */
export function InstrPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const tree = useDeviceTree();
  const index = tree.data;
  const selection = useTreeSelection('instr');
  const imeis = useMemo(() => (index ? checkedImeis(index, selection.checkedKeys) : []), [index, selection.checkedKeys]);
  const entries = useMemo(
    () => (index ? imeis.map((imei) => index.deviceByKey.get(index.keysByImei.get(imei)?.[0] ?? '')).filter((e): e is DeviceEntry => e !== undefined) : []),
    [index, imeis],
  );

  const [form, setForm] = useState<InstrForm>(emptyForm);
  const [tried, setTried] = useState(false);
  const unchecked = useUnchecked();
  // the notes are this visit's: leaving the console (sign-out) forgets them
  useEffect(() => clearUnchecked, []);
  const [results, setResults] = useState<{ outcomes: SendOutcome[]; byDevice: Map<string, DeviceResult> } | null>(null);
  const types = typesOf(form);
  const issues = formIssues(form);

  // ---- the daily limit: devices already at it for a type the form sends are unchecked, with the reason ----
  const acq = useExceed(imeis, 'ACQUISITION_FREQUENCY', types.includes('ACQUISITION_FREQUENCY'));
  const post = useExceed(imeis, 'POSTBACK_FREQUENCY', types.includes('POSTBACK_FREQUENCY'));
  useEffect(() => {
    if (!index) return;
    const over: Unchecked[] = [];
    for (const [type, q] of [['ACQUISITION_FREQUENCY', acq], ['POSTBACK_FREQUENCY', post]] as const) {
      if (!types.includes(type) || !q.data) continue;
      for (const e of q.data) if (e.Exceeded && imeis.includes(e.IMEI)) over.push({ imei: e.IMEI, name: e.Caption, type, count: e.Count });
    }
    if (over.length === 0) return;
    const drop = new Set(over.flatMap((o) => index.keysByImei.get(o.imei) ?? []));
    setTreeSelection('instr', { checkedKeys: getTreeSelection('instr').checkedKeys.filter((k) => !drop.has(k)) });
    noteUnchecked(over);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs on each answer of the limit calls
  }, [acq.data, post.data, index]);

  // ---- the chosen devices: batteries and support ----
  const details = useChosenDetails(imeis);
  const chosen: Chosen[] = entries.map((entry, i) => {
    const detail = details[i]?.data;
    return {
      entry,
      name: entry.device.RemarkName || entry.device.Caption,
      detail,
      lacks: missingSupport(form, entry.device),
      battery: detail ? batteryWarning(detail.Voltage, detail.BatteryType) : null,
    };
  });
  const lacking = chosen.filter((c) => c.lacks.length > 0);
  const checkingLimit = (types.includes('ACQUISITION_FREQUENCY') && acq.isFetching) || (types.includes('POSTBACK_FREQUENCY') && post.isFetching);

  /** Options some chosen device can't take: blocked, with the devices named. */
  const blockedBy = (test: (c: Chosen) => boolean) => {
    const names = chosen.filter(test).map((c) => c.name);
    return names.length > 0 ? t('instr.notSupportedBy', { devices: names.join(', ') }) : undefined;
  };
  const noFlag = (flag: InstrSupportName) => (c: Chosen) => !supports(c.entry.device.InstrSupport, flag);
  const blocked = {
    gnss128: blockedBy(noFlag('GNSSCollectionAdaptiveHighFrequency')),
    gnss129: blockedBy(noFlag('GNSSCollectionAdaptiveLowFrequency')),
    postbackHour: blockedBy(noFlag('DataPostbackHours')),
    acc: blockedBy((c) => !hasAccSensor(c.entry.device.Sensor) || noFlag('AccCollectionSwitch')(c)),
    accFrequency: blockedBy(noFlag('AccCollectionFrequency')),
  };

  const send = useSend();
  const lackText = (lack: Lack) => (lack === 'Acceleration' ? t('instr.lack.acceleration') : t('instr.lack.flag', { option: t(`instrSupport.${lack}`) }));

  const confirmSend = () => {
    setTried(true);
    if (issues.length > 0 || lacking.length > 0 || imeis.length === 0) return;
    const params = paramsOf(form);
    const lines = params.flatMap((p) => describeParams(p, t));
    const warned = chosen.filter((c) => c.battery !== null);
    modal.confirm({
      title: t('instr.confirm.title', { count: chosen.length }),
      width: 560,
      okText: t('instr.send'),
      cancelText: t('common.cancel'),
      content: (
        <div data-testid="instr-summary">
          {chosen.map((c) => (
            <div key={c.entry.device.IMEI} className="wt-instr-summary-device" data-testid={`summary-${c.entry.device.IMEI}`}>
              <Typography.Text strong>{c.name}</Typography.Text> <Typography.Text type="secondary" className="wt-mono">{c.entry.device.IMEI}</Typography.Text>
              <ul>
                {lines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              {c.battery ? <Alert type="warning" showIcon title={t(`instr.battery.${c.battery}Advice`)} /> : null}
            </div>
          ))}
          {warned.length > 0 ? <Typography.Paragraph type="warning">{t('instr.confirm.batteryNote')}</Typography.Paragraph> : null}
        </div>
      ),
      onOk: async () => {
        try {
          const outcomes = await send.mutateAsync({ imeis, params });
          const byDevice = new Map<string, DeviceResult>();
          for (const imei of imeis) byDevice.set(imei, { sent: [], refused: [] });
          for (const o of outcomes) {
            if (o.ok) for (const i of o.list) byDevice.get(i.IMEI)?.sent.push({ type: o.type, status: 'SENT' });
            else for (const [imei, reason] of refusalsOf(o, imeis)) byDevice.get(imei)?.refused.push(reason);
          }
          setResults({ outcomes, byDevice });
        } catch {
          // a network failure or an ended session: the client has said so
        }
      },
    });
  };

  // ---- history: the devices picked in its filter, else every device the user may instruct ----
  const [historyImeis, setHistoryImeis] = useState<string[]>([]);
  const instructable = useMemo(() => (index ? index.devices.filter((e) => e.permission.RemoteInstr && !e.device.Example) : []), [index]);
  const historyOptions = useMemo(() => {
    const seen = new Set<string>();
    return instructable
      .filter((e) => (seen.has(e.device.IMEI) ? false : (seen.add(e.device.IMEI), true)))
      .map((e) => ({ value: e.device.IMEI, label: `${e.device.RemarkName || e.device.Caption} (${e.device.IMEI})` }));
  }, [instructable]);
  const historyFor = historyImeis.length > 0 ? historyImeis : historyOptions.slice(0, HISTORY_DEVICES_MAX).map((o) => o.value);

  if (tree.isPending || tree.isError) return <TreeLoadState tree={tree} />;

  return (
    <div className="wt-instr-page" data-testid="instr-page">
      <Card className="wt-page-card" variant="borderless" title={t('instr.chosenTitle')} extra={<Typography.Text type="secondary">{t('instr.chosenCount', { count: imeis.length })}</Typography.Text>}>
        {unchecked.length > 0 ? (
          <Alert
            type="info"
            showIcon
            closable={{ onClose: clearUnchecked }}
            className="wt-instr-note"
            data-testid="instr-unchecked"
            title={t('instr.uncheckedTitle')}
            description={
              <ul>
                {unchecked.map((u) => (
                  <li key={`${u.imei}-${u.type}`} data-imei={u.imei}>
                    {t('instr.uncheckedReason', { device: u.name, count: u.count, limit: INSTRUCTIONS_PER_DEVICE_PER_DAY, type: t(`instr.type.${u.type}`, { ns: 'contract' }) })}
                  </li>
                ))}
              </ul>
            }
          />
        ) : null}
        {imeis.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={instructable.length === 0 ? t('instr.noRight') : t('instr.pickDevices')} data-testid="instr-no-devices" />
        ) : (
          <Table<Chosen>
            data-testid="instr-devices"
            size="small"
            rowKey={(c) => c.entry.device.IMEI}
            pagination={false}
            dataSource={chosen}
            onRow={(c) => ({ 'data-testid': `instr-device-${c.entry.device.IMEI}` }) as object}
            columns={[
              {
                key: 'name',
                title: t('instr.col.device'),
                render: (_, c) => (
                  <span>
                    {c.name} <Typography.Text type="secondary" className="wt-mono">{c.entry.device.IMEI}</Typography.Text>
                  </span>
                ),
              },
              {
                key: 'battery',
                title: t('instr.col.battery'),
                render: (_, c) =>
                  c.detail === undefined ? (
                    <span className="wt-muted">…</span>
                  ) : c.battery ? (
                    <Tooltip title={t(`instr.battery.${c.battery}Advice`)}>
                      <Tag color="warning" data-testid="battery-warning" data-level={c.battery}>
                        {t(`instr.battery.${c.battery}`, { voltage: c.detail.Voltage?.toFixed(2) ?? '' })}
                      </Tag>
                    </Tooltip>
                  ) : c.detail.Voltage === null ? (
                    <span className="wt-muted">{t('device.noVoltage')}</span>
                  ) : (
                    `${c.detail.Voltage.toFixed(2)} V`
                  ),
              },
              {
                key: 'support',
                title: t('instr.col.support'),
                render: (_, c) =>
                  c.lacks.length === 0 ? (
                    <Tag color="success">{t('instr.supported')}</Tag>
                  ) : (
                    <Space orientation="vertical" size={2} data-testid="instr-lacks">
                      {c.lacks.map((l) => (
                        <Tag key={l} color="error">
                          {lackText(l)}
                        </Tag>
                      ))}
                    </Space>
                  ),
              },
              {
                key: 'result',
                title: t('instr.col.result'),
                render: (_, c) => {
                  const r = results?.byDevice.get(c.entry.device.IMEI);
                  if (!r) return null;
                  return (
                    <Space orientation="vertical" size={2} data-testid="instr-result">
                      {r.sent.map((s) => (
                        <span key={s.type}>
                          {t(`instr.type.${s.type}`, { ns: 'contract' })} <InstructionStatusTag status={s.status} />
                        </span>
                      ))}
                      {r.refused.map((m) => (
                        <Typography.Text key={m} type="danger" data-testid="instr-refused">
                          {m}
                        </Typography.Text>
                      ))}
                    </Space>
                  );
                },
              },
            ]}
          />
        )}
      </Card>

      <Card className="wt-page-card" variant="borderless" title={t('instr.formTitle')}>
        <InstrFormPanel form={form} onChange={setForm} issues={tried ? issues : []} blocked={blocked} />
        {lacking.length > 0 ? (
          <Alert
            type="error"
            showIcon
            className="wt-instr-note"
            data-testid="instr-unsupported"
            title={t('instr.unsupportedTitle')}
            description={lacking.map((c) => `${c.name}: ${c.lacks.map(lackText).join(t('instr.listSep'))}`).join('; ')}
          />
        ) : null}
        {results ? <SendResults outcomes={results.outcomes} /> : null}
        <Space className="wt-instr-actions">
          <Button
            type="primary"
            icon={<SendOutlined />}
            data-testid="instr-send"
            disabled={imeis.length === 0 || lacking.length > 0 || checkingLimit}
            loading={send.isPending}
            onClick={confirmSend}
          >
            {t('instr.send')}
          </Button>
          <Button
            onClick={() => {
              setForm(emptyForm());
              setTried(false);
              setResults(null);
            }}
          >
            {t('common.reset')}
          </Button>
          {checkingLimit ? (
            <Typography.Text type="secondary" data-testid="instr-checking-limit">
              {t('instr.checkingLimit')}
            </Typography.Text>
          ) : null}
          {tried && issues.length > 0 ? <Typography.Text type="danger">{t('instr.fixForm')}</Typography.Text> : null}
        </Space>
      </Card>

      <Card className="wt-page-card" variant="borderless" title={t('instr.history.title')}>
        <InstructionHistory
          imeis={historyFor}
          noDevices={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('instr.noRight')} />}
          extra={
            <Select<string[]>
              mode="multiple"
              allowClear
              maxTagCount="responsive"
              aria-label={t('instr.history.devices')}
              placeholder={t('instr.history.allDevices')}
              data-testid="instr-history-devices"
              style={{ minWidth: 240 }}
              value={historyImeis}
              onChange={setHistoryImeis}
              options={historyOptions}
              optionFilterProp="label"
            />
          }
        />
      </Card>
    </div>
  );
}

/** The server's word on each Send: sent, or refused with its reasons (it names each device). */
function SendResults({ outcomes }: { outcomes: SendOutcome[] }) {
  const { t } = useTranslation();
  return (
    <div data-testid="instr-send-results">
      {outcomes.map((o) =>
        o.ok ? (
          <Alert key={o.type} type="success" showIcon className="wt-instr-note" title={t('instr.sentTo', { type: t(`instr.type.${o.type}`, { ns: 'contract' }), count: o.list.length })} />
        ) : (
          <Alert key={o.type} type="error" showIcon className="wt-instr-note" data-testid="instr-send-refused" title={t('instr.notSent', { type: t(`instr.type.${o.type}`, { ns: 'contract' }) })} description={o.message} />
        ),
      )}
    </div>
  );
}

/**
 * A refused Send's reasons by device: the refusal's Data lists them (the contract's InstructionRefusal);
 * a refusal without it (a session that ended, a call the server refused before looking at the devices)
 * is said whole beside every device.
 */
export function refusalsOf(o: Extract<SendOutcome, { ok: false }>, imeis: readonly string[]): [string, string][] {
  const listed = InstructionRefusalSchema.safeParse(o.data);
  if (listed.success && listed.data.Refused.length > 0) return listed.data.Refused.map((r) => [r.IMEI, r.Reason]);
  return imeis.map((imei) => [imei, o.message]);
}
