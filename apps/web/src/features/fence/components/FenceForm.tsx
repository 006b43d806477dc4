import { FENCE_LABEL_MAX, FENCE_MAX_DEVICES, FENCE_RULE_TYPE, INSTRUCTION_INTERVAL_MAX, INSTRUCTION_INTERVAL_MIN, PACKET_COUNT_MAX, PACKET_SIZE_MAX, PACKET_SIZE_MIN, type FenceRule } from '@wildtrack/contract';
import { Alert, Checkbox, Form, Input, InputNumber, Radio, Select, Switch, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceTree } from '../../../widgets/device-tree';
import type { DraftField, FenceDraft } from '../model';

interface Props {
  draft: FenceDraft;
  onChange: (next: FenceDraft) => void;
  /** The contract's sentence per field, shown once the user tried to save. */
  issues: ReadonlyMap<DraftField, string>;
  /** The area line and the drawing tools (the page owns the map). */
  shapeField: ReactNode;
  /** The stored fence's rules (sync state per device), when editing one. */
  rules: readonly FenceRule[] | undefined;
  readOnly: boolean;
}

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: h, label: `${String(h).padStart(2, '0')}:00` }));

/**
 * The geofence form (§3 "Geofence as the user edits it", §5 Geofence): name, enabled, the shape (drawn on
 * the map beside it), the devices (only those the user may send instructions to: a fence's rules go
 * through the instruction channel; experience devices are greyed with the reason), when the rule fires,
 * where it is evaluated, whether it sends instructions, and the collection and transmission schedule.
 */
export function FenceForm({ draft, onChange, issues, shapeField, rules, readOnly }: Props) {
  const { t } = useTranslation();
  const tree = useDeviceTree().data;
  const set = <K extends keyof FenceDraft>(key: K, value: FenceDraft[K]) => onChange({ ...draft, [key]: value });
  const item = (field: DraftField) => ({ validateStatus: issues.has(field) ? ('error' as const) : undefined, help: issues.get(field) });

  // every device of the tree once; those the user may not write greyed with the reason
  const deviceOptions = useMemo(() => {
    const seen = new Set<string>();
    const out: { value: string; label: ReactNode; title: string; search: string; disabled: boolean }[] = [];
    for (const { device: d, permission } of tree?.devices ?? []) {
      if (seen.has(d.IMEI)) continue;
      seen.add(d.IMEI);
      const name = d.RemarkName || d.Caption || d.IMEI;
      const reason = d.Example ? t('fence.reason.example') : !permission.RemoteInstr ? t('tree.reason.instr') : null;
      out.push({
        value: d.IMEI,
        title: name,
        // found by its name or its IMEI
        search: `${name} ${d.IMEI}`,
        disabled: reason !== null && !draft.imeis.includes(d.IMEI),
        label: reason ? (
          <span>
            {name} <Typography.Text type="secondary">({reason})</Typography.Text>
          </span>
        ) : (
          name
        ),
      });
    }
    return out;
  }, [tree, t, draft.imeis]);

  const c = draft.collection;
  const p = draft.postback;

  return (
    <Form layout="vertical" component="div" disabled={readOnly} className="wt-fence-form" data-testid="fence-form">
      <Form.Item label={t('fence.field.label')} required {...item('label')}>
        <Input aria-label={t('fence.field.label')} value={draft.label} maxLength={FENCE_LABEL_MAX} onChange={(e) => set('label', e.target.value)} data-testid="fence-label" placeholder={t('fence.labelPlaceholder')} />
      </Form.Item>
      <Form.Item label={t('fence.field.shape')} required {...item('shape')}>
        {shapeField}
      </Form.Item>
      <Form.Item label={t('fence.field.enabled')}>
        <Switch aria-label={t('fence.field.enabled')} checked={draft.enabled} onChange={(v) => set('enabled', v)} data-testid="fence-enabled" />
      </Form.Item>
      <Form.Item label={t('fence.field.devices')} required {...item('imeis')}>
        <Select
          mode="multiple"
          aria-label={t('fence.field.devices')}
          data-testid="fence-devices"
          value={draft.imeis}
          onChange={(v: string[]) => set('imeis', v)}
          options={deviceOptions}
          optionFilterProp="search"
          maxCount={FENCE_MAX_DEVICES}
          placeholder={t('fence.devicesPlaceholder')}
          loading={!tree}
        />
      </Form.Item>
      <Form.Item label={t('fence.field.inOrOut')} required {...item('inOrOut')}>
        <Checkbox.Group
          data-testid="fence-in-or-out"
          value={draft.inOrOut === 'BOTH' ? ['ENTER', 'LEAVE'] : [draft.inOrOut]}
          onChange={(v) => {
            const enter = v.includes('ENTER');
            const leave = v.includes('LEAVE');
            // one of them always stays: unticking the last one keeps it
            if (enter || leave) set('inOrOut', enter && leave ? 'BOTH' : enter ? 'ENTER' : 'LEAVE');
          }}
          options={[
            { value: 'ENTER', label: t('fence.inOrOut.ENTER') },
            { value: 'LEAVE', label: t('fence.inOrOut.LEAVE') },
          ]}
        />
      </Form.Item>
      <Form.Item label={t('fence.field.ruleType')} required {...item('ruleType')} extra={draft.ruleType === FENCE_RULE_TYPE.Device ? t('fence.ruleTypeDeviceHint') : t('fence.ruleTypeRemoteHint')}>
        <Radio.Group
          data-testid="fence-rule-type"
          value={draft.ruleType}
          onChange={(e) => set('ruleType', e.target.value as 1 | 2)}
          options={[
            { value: FENCE_RULE_TYPE.Remote, label: t('fence.ruleType.remote') },
            { value: FENCE_RULE_TYPE.Device, label: t('fence.ruleType.device') },
          ]}
        />
      </Form.Item>
      <Form.Item label={t('fence.field.allowSendInstr')} extra={t('fence.allowSendInstrHint')}>
        <Switch aria-label={t('fence.field.allowSendInstr')} checked={draft.allowSendInstr} onChange={(v) => set('allowSendInstr', v)} data-testid="fence-allow-instr" />
      </Form.Item>
      <Form.Item label={t('fence.field.collection')} required {...item('collection')}>
        <Radio.Group value={c.mode} onChange={(e) => set('collection', { ...c, mode: e.target.value as 'INTERVAL' | 'HOURS' })} data-testid="fence-collection-mode">
          <Radio value="INTERVAL">{t('fence.collection.interval')}</Radio>
          <Radio value="HOURS">{t('fence.collection.hours')}</Radio>
        </Radio.Group>
        <div className="wt-fence-sub">
          {c.mode === 'INTERVAL' ? (
            <InputNumber<number>
              data-testid="fence-collection-minutes"
              aria-label={t('fence.field.collection')}
              min={INSTRUCTION_INTERVAL_MIN}
              max={INSTRUCTION_INTERVAL_MAX}
              precision={0}
              value={c.minutes}
              onChange={(v) => set('collection', { ...c, minutes: v ?? null })}
              suffix={t('instr.minutesUnit')}
              style={{ width: 180 }}
            />
          ) : (
            <Select mode="multiple" aria-label={t('fence.field.collection')} data-testid="fence-collection-hours" value={c.hours} onChange={(v: number[]) => set('collection', { ...c, hours: v })} options={HOURS} placeholder={t('fence.hoursPlaceholder')} />
          )}
        </div>
      </Form.Item>
      <Form.Item label={t('fence.field.postback')} required {...item('postback')}>
        <Radio.Group value={p.mode} onChange={(e) => set('postback', { ...p, mode: e.target.value as 'HOUR' | 'DATA_CNT' })} data-testid="fence-postback-mode">
          <Radio value="HOUR">{t('fence.postback.hour')}</Radio>
          <Radio value="DATA_CNT">{t('fence.postback.count')}</Radio>
        </Radio.Group>
        <div className="wt-fence-sub">
          {p.mode === 'HOUR' ? (
            <Select mode="multiple" aria-label={t('fence.field.postback')} data-testid="fence-postback-hours" value={p.hours} onChange={(v: number[]) => set('postback', { ...p, hours: v })} options={HOURS} placeholder={t('fence.hoursPlaceholder')} />
          ) : (
            <span className="wt-fence-row">
              <InputNumber<number> aria-label={t('fence.postback.packetCount')} placeholder={t('fence.postback.packetCount')} min={1} max={PACKET_COUNT_MAX} precision={0} value={p.packetCount} onChange={(v) => set('postback', { ...p, packetCount: v ?? null })} />
              <InputNumber<number> aria-label={t('fence.postback.packetSize')} placeholder={t('fence.postback.packetSize')} min={PACKET_SIZE_MIN} max={PACKET_SIZE_MAX} precision={0} value={p.packetSize} onChange={(v) => set('postback', { ...p, packetSize: v ?? null })} />
            </span>
          )}
          <Checkbox checked={p.realtime} onChange={(e) => set('postback', { ...p, realtime: e.target.checked })}>
            {t('fence.postback.realtime')}
          </Checkbox>
        </div>
      </Form.Item>
      {rules && rules.length > 0 ? <RuleTable rules={rules} /> : null}
      {readOnly ? <Alert type="info" showIcon message={t('fence.readOnly')} data-testid="fence-read-only" /> : null}
    </Form>
  );
}

/** The stored fence's rules: per device, where it is evaluated, its sync state (§4) and its last side. */
function RuleTable({ rules }: { rules: readonly FenceRule[] }) {
  const { t } = useTranslation();
  return (
    <Table<FenceRule>
      size="small"
      data-testid="fence-rules"
      rowKey="IdStr"
      pagination={false}
      dataSource={[...rules]}
      columns={[
        { title: t('fence.col.device'), render: (_, r) => r.Caption || r.IMEI },
        { title: t('fence.col.ruleType'), render: (_, r) => (r.RuleType === FENCE_RULE_TYPE.Device ? t('fence.ruleType.device') : t('fence.ruleType.remote')) },
        {
          title: t('fence.col.sync'),
          render: (_, r) =>
            r.Synchronized === 1 ? <Tag color="green">{t('fence.sync.synchronized')}</Tag> : <Tag color="processing">{t('fence.sync.synchronizing')}</Tag>,
        },
        { title: t('fence.col.inside'), render: (_, r) => (r.Inside === null ? '—' : r.Inside ? t('fence.inside') : t('fence.outside')) },
      ]}
    />
  );
}
