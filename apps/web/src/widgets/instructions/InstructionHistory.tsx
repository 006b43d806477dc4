import { INSTRUCTION_STATUSES, INSTRUCTION_TYPES, INSTRUCTION_WITHDRAW_WINDOW_MS, type Instruction, type InstructionStatus, type InstrType } from '@wildtrack/contract';
import { Alert, Button, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/ErrorState';
import { useServerTable } from '../../components/serverTable';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { isApiError } from '../../lib/api';
import { useNow } from '../../lib/clock';
import { resolveRange, type PositionRange } from '../../lib/positionSelection';
import { useZone } from '../../lib/session';
import { useInstructionHistory, useWithdraw, type HistoryQuery } from './api';
import './instructions.css';

type PageSize = HistoryQuery['pageSize'];

/** Status colours (§4): waiting blue, applied green, refused red, never fetched orange, withdrawn grey. */
export const STATUS_COLOR: Record<InstructionStatus, string> = {
  SENT: 'processing',
  SUCCESSFUL: 'success',
  FAILED: 'error',
  COMM_ERROR: 'warning',
  WITHDRAWN: 'default',
};

export function InstructionStatusTag({ status }: { status: InstructionStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid="instr-status" data-status={status}>
      {t(`instr.status.${status}`, { ns: 'contract' })}
    </Tag>
  );
}

/** Seconds left of the withdraw window (§9: 2 minutes) by this browser's clock; the server decides. */
export function withdrawSecondsLeft(sendAt: number, now: number): number {
  return Math.max(0, Math.ceil((sendAt + INSTRUCTION_WITHDRAW_WINDOW_MS - now) / 1000));
}

function WithdrawButton({ row, now, onRefused }: { row: Instruction; now: number; onRefused: (id: string, message: string | null) => void }) {
  const { t } = useTranslation();
  const withdraw = useWithdraw();
  // the server decides (its clock); past the window by this browser's clock the button stays, and the
  // server's answer ("older than 2 minutes cannot be withdrawn", §8) is said on the row
  const left = row.CanWithdraw ? withdrawSecondsLeft(row.SendAt, now) : 0;
  return (
    <Tooltip title={left > 0 ? t('instr.withdrawTip', { seconds: left }) : t('instr.withdrawLate')}>
      <Button
        size="small"
        danger={left > 0}
        data-testid="instr-withdraw"
        data-left={left}
        loading={withdraw.isPending}
        onClick={() => {
          onRefused(row.IdStr, null);
          withdraw.mutate(
            { imei: row.IMEI, id: row.IdStr },
            { onError: (e) => onRefused(row.IdStr, isApiError(e) ? (e.info.msg ?? e.message) : t('instr.withdrawFailed')) },
          );
        }}
      >
        {t('instr.withdraw')} {left > 0 ? `(${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')})` : null}
      </Button>
    </Tooltip>
  );
}

interface Props {
  /** The devices whose instructions are listed. */
  imeis: readonly string[];
  /** The device column (hidden in one device's details). */
  showDevice?: boolean;
  /** Shown in place of the table when there are no devices to list. */
  noDevices?: ReactNode;
  /** A control put before the range (a device filter). */
  extra?: ReactNode;
}

/**
 * The remote-instruction history (§2.1, §3 Instruction): a page at a time, by device and range, statuses
 * in colour, times in the user's zone (the server writes them in it), relay and sender, the device's
 * error message, and a withdraw button on an instruction still SENT, counting down its 2 minutes (§9); a
 * refusal (too late, already answered) is said on its row in the server's words.
 */
export function InstructionHistory({ imeis, showDevice = true, noDevices, extra }: Props) {
  const { t } = useTranslation();
  const zone = useZone();
  const [range, setRange] = useState<PositionRange>({ span: 7 });
  const [type, setType] = useState<InstrType | undefined>();
  const [status, setStatus] = useState<InstructionStatus | undefined>();
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const now = useNow(1000);
  const { start, end } = resolveRange(range, zone);
  // other devices, range, type or status start again at page 1
  const table = useServerTable(JSON.stringify([imeis, start, end, type, status]));
  const list = useInstructionHistory({ imeis, start, end, type, status, currentPage: table.paging.currentPage, pageSize: table.paging.pageSize as PageSize });
  const onRefused = (id: string, message: string | null) =>
    setRefusals((prev) => {
      const next = { ...prev };
      if (message === null) delete next[id];
      else next[id] = message;
      return next;
    });
  const none = <span className="wt-muted">—</span>;
  const orNone = (v: string) => (v === '' ? none : v);

  const filters = (
    <Space wrap className="wt-instr-history-filters">
      {extra}
      <TimeRangePicker
        value={range}
        onChange={setRange}
      />
      <Select<InstrType>
        allowClear
        aria-label={t('instr.history.type')}
        placeholder={t('instr.history.allTypes')}
        data-testid="instr-history-type"
        style={{ minWidth: 150 }}
        value={type}
        onChange={(v) => setType(v ?? undefined)}
        options={INSTRUCTION_TYPES.map((v) => ({ value: v, label: t(`instr.type.${v}`, { ns: 'contract' }) }))}
      />
      <Select<InstructionStatus>
        allowClear
        aria-label={t('instr.history.status')}
        placeholder={t('instr.history.allStatuses')}
        data-testid="instr-history-status"
        style={{ minWidth: 150 }}
        value={status}
        onChange={(v) => setStatus(v ?? undefined)}
        options={INSTRUCTION_STATUSES.map((v) => ({ value: v, label: t(`instr.status.${v}`, { ns: 'contract' }) }))}
      />
    </Space>
  );

  if (imeis.length === 0) {
    return (
      <div className="wt-instr-history" data-testid="instr-history" data-state="no-devices">
        {filters}
        {noDevices}
      </div>
    );
  }

  return (
    <div className="wt-instr-history" data-testid="instr-history" data-state={list.isPending ? 'loading' : list.isError ? 'error' : (list.data?.Total ?? 0) === 0 ? 'empty' : 'ready'}>
      {filters}
      {list.isError ? (
        <ErrorState title={t('instr.history.loadError')} error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<Instruction>
          data-testid="instr-history-table"
          size="small"
          rowKey="IdStr"
          loading={list.isFetching && !list.data}
          dataSource={list.data?.List ?? []}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: list.isPending ? ' ' : t('instr.history.empty') }}
          onRow={(r) => ({ 'data-testid': `instr-row-${r.IdStr}`, 'data-imei': r.IMEI, 'data-status': r.Status }) as object}
          pagination={table.pagination(list.data?.Total ?? 0, (total) => t('instr.history.total', { count: total }))}
          onChange={table.onChange}
          columns={[
            ...(showDevice
              ? [
                  {
                    key: 'device',
                    title: t('instr.history.device'),
                    render: (_: unknown, r: Instruction) => (
                      <span>
                        {r.Caption} <Typography.Text type="secondary" className="wt-mono">{r.IMEI}</Typography.Text>
                      </span>
                    ),
                  },
                ]
              : []),
            { key: 'type', title: t('instr.history.type'), render: (_, r) => r.Desc || t(`instr.type.${r.InstrType}`, { ns: 'contract' }) },
            { key: 'detail', title: t('instr.history.detail'), dataIndex: 'Detail', width: 280, render: (v: string) => <span className="wt-instr-detail">{v}</span> },
            {
              key: 'status',
              title: t('instr.history.status'),
              // wide enough for a refused withdraw's sentence to wrap inside it, not run under the Action column
              width: 220,
              render: (_, r) => (
                <Space orientation="vertical" size={2}>
                  <InstructionStatusTag status={r.Status} />
                  {r.ErrorMessage ? (
                    <Typography.Text type="danger" className="wt-instr-error" data-testid="instr-error">
                      {r.ErrorMessage}
                    </Typography.Text>
                  ) : null}
                  {refusals[r.IdStr] ? (
                    <Alert type="warning" showIcon className="wt-instr-refusal" title={refusals[r.IdStr]} data-testid="instr-withdraw-refusal" />
                  ) : null}
                </Space>
              ),
            },
            { key: 'send', title: t('instr.history.sendTime'), dataIndex: 'SendTime', width: 170 },
            { key: 'estimate', title: t('instr.history.estimateTime'), dataIndex: 'EstimateExecuteTime', width: 170, render: orNone },
            { key: 'execute', title: t('instr.history.executeTime'), dataIndex: 'ExecuteTime', width: 170, render: orNone },
            { key: 'sender', title: t('instr.history.sender'), dataIndex: 'SenderName', render: orNone },
            {
              key: 'relay',
              title: t('instr.history.relay'),
              render: (_, r) => (r.RelayIMEI ? `${r.RelayCaption || r.RelayIMEI}` : none),
            },
            {
              key: 'action',
              title: t('instr.history.action'),
              fixed: 'right',
              render: (_, r) => (r.Status === 'SENT' ? <WithdrawButton row={r} now={now} onRefused={onRefused} /> : null),
            },
          ]}
        />
      )}
    </div>
  );
}
