import { GNSSCollectionMode } from '@wildtrack/contract';
import { Checkbox, Divider, Form, InputNumber, Radio, Select, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HOURS_MAX, HZ_OPTIONS, INTERVAL_MAX, INTERVAL_MIN, LEVELS, LOW_HOURS_MAX, SECTIONS, type FormIssue, type GnssMode, type InstrForm, type Section } from '../model';
import { HourPicker } from './HourPicker';

interface Props {
  form: InstrForm;
  onChange: (next: InstrForm) => void;
  /** Problems to show beside their fields (shown once the user tried to send). */
  issues: readonly FormIssue[];
  /** Options no chosen device supports, by option (an i18n text each): shown greyed with the reason. */
  blocked: Partial<Record<'gnss128' | 'gnss129' | 'postbackHour' | 'acc' | 'accFrequency', string>>;
}

function Field({ label, issue, children, testId }: { label: ReactNode; issue: FormIssue | undefined; children: ReactNode; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} validateStatus={issue ? 'error' : undefined} help={issue ? t(issue.key, issue.values) : undefined} data-testid={testId}>
      {children}
    </Form.Item>
  );
}

function Minutes({ value, onChange, label, testId }: { value: number | null; onChange: (v: number | null) => void; label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <InputNumber<number>
      aria-label={label}
      data-testid={testId}
      min={INTERVAL_MIN}
      max={INTERVAL_MAX}
      precision={0}
      value={value}
      onChange={(v) => onChange(v ?? null)}
      suffix={t('instr.minutesUnit')}
      style={{ width: 180 }}
    />
  );
}

/**
 * The settings an instruction carries (§3 DeviceWorkStatus): GNSS collection (normal by interval or by
 * hours, voltage-adaptive high 128 by three intervals, voltage-adaptive low 129 by three hour lists),
 * data postback (by packet count and size, or by hours; real time) and acceleration.
 */
export function InstrFormPanel({ form, onChange, issues, blocked }: Props) {
  const { t } = useTranslation();
  const issue = (field: string) => issues.find((i) => i.field === field);
  const set = <K extends keyof InstrForm>(key: K, value: InstrForm[K]) => onChange({ ...form, [key]: value });
  const g = form.gnss;
  const p = form.postback;
  const a = form.acc;
  const on = (s: Section) => form.sections.includes(s);

  const reasonOf = (text: string | undefined, label: ReactNode) =>
    text ? (
      <span title={text}>
        {label} <Typography.Text type="secondary">({text})</Typography.Text>
      </span>
    ) : (
      label
    );

  return (
    <Form layout="horizontal" labelCol={{ flex: '220px' }} wrapperCol={{ flex: 'auto' }} labelAlign="left" labelWrap colon={false} className="wt-instr-form" data-testid="instr-form" component="div">
      <Field label={t('instr.sections')} issue={issue('sections')}>
        <Checkbox.Group<Section>
          data-testid="instr-sections"
          value={form.sections}
          onChange={(v) => set('sections', SECTIONS.filter((s) => v.includes(s)))}
          options={SECTIONS.map((s) => ({
            value: s,
            label: s === 'acc' ? reasonOf(blocked.acc, t('instr.section.acc')) : t(`instr.section.${s}`),
            disabled: s === 'acc' && blocked.acc !== undefined && !on('acc'),
          }))}
        />
      </Field>

      {on('gnss') ? (
        <section data-testid="gnss-section" aria-label={t('instr.section.gnss')}>
          <Divider titlePlacement="start">{t('instr.section.gnss')}</Divider>
          <Field label={t('work.mode')} issue={undefined}>
            <Radio.Group
              data-testid="gnss-mode"
              value={g.mode}
              onChange={(e) => set('gnss', { ...g, mode: e.target.value as GnssMode })}
              options={[
                { value: GNSSCollectionMode.NORMAL, label: t('work.gnssMode.0') },
                { value: GNSSCollectionMode.ADAPTIVE_HIGH, label: reasonOf(blocked.gnss128, t('work.gnssMode.128')), disabled: blocked.gnss128 !== undefined && g.mode !== GNSSCollectionMode.ADAPTIVE_HIGH },
                { value: GNSSCollectionMode.ADAPTIVE_LOW, label: reasonOf(blocked.gnss129, t('work.gnssMode.129')), disabled: blocked.gnss129 !== undefined && g.mode !== GNSSCollectionMode.ADAPTIVE_LOW },
              ]}
            />
          </Field>
          {g.mode === GNSSCollectionMode.NORMAL ? (
            <>
              <Field label={t('work.normalType')} issue={undefined}>
                <Radio.Group
                  data-testid="gnss-normal-type"
                  value={g.normalType}
                  onChange={(e) => set('gnss', { ...g, normalType: e.target.value as 'INTERVAL' | 'HOURS' })}
                  options={[
                    { value: 'INTERVAL', label: t('work.normalTypes.INTERVAL') },
                    { value: 'HOURS', label: t('work.normalTypes.HOURS') },
                  ]}
                />
              </Field>
              {g.normalType === 'INTERVAL' ? (
                <Field label={t('instr.everyMinutes')} issue={issue('gnss.intervalMinutes')}>
                  <Minutes testId="gnss-interval" label={t('instr.everyMinutes')} value={g.intervalMinutes} onChange={(v) => set('gnss', { ...g, intervalMinutes: v })} />
                </Field>
              ) : (
                <Field label={t('work.customHours')} issue={issue('gnss.customHours')}>
                  <HourPicker testId="gnss-hours" label={t('work.customHours')} max={HOURS_MAX} value={g.customHours} onChange={(v) => set('gnss', { ...g, customHours: v })} />
                </Field>
              )}
            </>
          ) : g.mode === GNSSCollectionMode.ADAPTIVE_HIGH ? (
            LEVELS.map((level) => (
              <Field key={level} label={t(`work.level.${level}`)} issue={issue(`gnss.highIntervals.${level}`)}>
                <Minutes
                  testId={`gnss-high-${level}`}
                  label={t(`work.level.${level}`)}
                  value={g.highIntervals[level]}
                  onChange={(v) => set('gnss', { ...g, highIntervals: { ...g.highIntervals, [level]: v } })}
                />
              </Field>
            ))
          ) : (
            LEVELS.map((level) => (
              <Field key={level} label={t('instr.levelHours', { level: t(`work.level.${level}`), max: LOW_HOURS_MAX[level] })} issue={issue(`gnss.lowHours.${level}`)}>
                <HourPicker
                  testId={`gnss-low-${level}`}
                  label={t(`work.level.${level}`)}
                  max={LOW_HOURS_MAX[level]}
                  value={g.lowHours[level]}
                  onChange={(v) => set('gnss', { ...g, lowHours: { ...g.lowHours, [level]: v } })}
                />
              </Field>
            ))
          )}
        </section>
      ) : null}

      {on('postback') ? (
        <section data-testid="postback-section" aria-label={t('instr.section.postback')}>
          <Divider titlePlacement="start">{t('instr.section.postback')}</Divider>
          <Field label={t('work.mode')} issue={undefined}>
            <Radio.Group
              data-testid="postback-mode"
              value={p.mode}
              onChange={(e) => set('postback', { ...p, mode: e.target.value as 'DATA_CNT' | 'HOUR' })}
              options={[
                { value: 'DATA_CNT', label: t('work.postbackMode.DATA_CNT') },
                { value: 'HOUR', label: reasonOf(blocked.postbackHour, t('work.postbackMode.HOUR')), disabled: blocked.postbackHour !== undefined && p.mode !== 'HOUR' },
              ]}
            />
          </Field>
          <Field label={t('work.realtime')} issue={undefined}>
            <Switch data-testid="postback-realtime" aria-label={t('work.realtime')} checked={p.realtime} onChange={(v) => set('postback', { ...p, realtime: v })} />
          </Field>
          {p.mode === 'HOUR' ? (
            <Field label={t('work.postbackHours')} issue={issue('postback.hours')}>
              <HourPicker testId="postback-hours" label={t('work.postbackHours')} max={HOURS_MAX} value={p.hours} onChange={(v) => set('postback', { ...p, hours: v })} />
            </Field>
          ) : p.realtime ? null : (
            <>
              <Field label={t('work.packetCount')} issue={issue('postback.packetCount')}>
                <InputNumber<number>
                  aria-label={t('work.packetCount')}
                  data-testid="postback-count"
                  min={1}
                  max={10_000}
                  precision={0}
                  value={p.packetCount}
                  onChange={(v) => set('postback', { ...p, packetCount: v ?? null })}
                  style={{ width: 180 }}
                />
              </Field>
              <Field label={t('work.packetSize')} issue={issue('postback.packetSize')}>
                <InputNumber<number>
                  aria-label={t('work.packetSize')}
                  data-testid="postback-size"
                  min={1}
                  max={65_535}
                  precision={0}
                  value={p.packetSize}
                  onChange={(v) => set('postback', { ...p, packetSize: v ?? null })}
                  suffix="B"
                  style={{ width: 180 }}
                />
              </Field>
            </>
          )}
        </section>
      ) : null}

      {on('acc') ? (
        <section data-testid="acc-section" aria-label={t('instr.section.acc')}>
          <Divider titlePlacement="start">{t('instr.section.acc')}</Divider>
          <Field label={t('work.accEnabled')} issue={undefined}>
            <Switch data-testid="acc-enabled" aria-label={t('work.accEnabled')} checked={a.enabled} onChange={(v) => set('acc', { ...a, enabled: v })} />
          </Field>
          {a.enabled ? (
            <>
              {blocked.accFrequency ? (
                <Typography.Paragraph type="warning" data-testid="acc-frequency-blocked">
                  {blocked.accFrequency}
                </Typography.Paragraph>
              ) : null}
              <Field label={t('work.accFollow')} issue={undefined}>
                <Switch data-testid="acc-follow" aria-label={t('work.accFollow')} checked={a.followGNSS} onChange={(v) => set('acc', { ...a, followGNSS: v })} />
              </Field>
              <Field label={t('work.accFrequency')} issue={issue('acc.hz')}>
                <Select<number>
                  aria-label={t('work.accFrequency')}
                  data-testid="acc-hz"
                  style={{ width: 180 }}
                  placeholder={t('instr.hzKept')}
                  allowClear
                  disabled={blocked.accFrequency !== undefined && a.hz === null}
                  value={a.hz ?? undefined}
                  onChange={(v) => set('acc', { ...a, hz: v ?? null })}
                  options={HZ_OPTIONS.map((hz) => ({ value: hz, label: `${hz} Hz` }))}
                />
              </Field>
              {a.followGNSS ? null : (
                <Field label={t('work.accInterval')} issue={issue('acc.intervalMinutes')}>
                  <Minutes testId="acc-interval" label={t('work.accInterval')} value={a.intervalMinutes} onChange={(v) => set('acc', { ...a, intervalMinutes: v })} />
                </Field>
              )}
            </>
          ) : null}
        </section>
      ) : null}
    </Form>
  );
}
