import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GetInstructionList, WithdrawInstruction, type InstructionStatus, type InstrType } from '@wildtrack/contract';
import { useLang } from '../../i18n';
import { call } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { useSignedIn, useZone } from '../../lib/session';

/**
 * The instruction history (§2.1, §3 Instruction): a page of the instructions sent to some devices in a
 * range, and the withdraw of one still SENT (§4: within 2 minutes). /instr and the device details both
 * show it, so it is a slot. Keys carry the zone (times are text in it) and the language (Desc, Detail).
 */

export interface HistoryQuery {
  imeis: readonly string[];
  /** Texts in the user's zone ('YYYY-MM-DD HH:mm:ss'). */
  start: string;
  end: string;
  type?: InstrType | undefined;
  status?: InstructionStatus | undefined;
  currentPage: number;
  pageSize: 10 | 20 | 40 | 50 | 100;
}

/** While an instruction waits for its device, the history is read again this often (its status moves on by itself). */
export const HISTORY_REFRESH_MS = 15_000;

export function useInstructionHistory(q: HistoryQuery) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...queryKeys.instructions, 'list', q, zone, lang],
    queryFn: ({ signal }) =>
      call(
        GetInstructionList,
        {
          imeis: [...q.imeis],
          startTime: q.start,
          endTime: q.end,
          timeZone: zone,
          currentPage: q.currentPage,
          pageSize: q.pageSize,
          ...(q.type ? { type: q.type } : {}),
          ...(q.status ? { status: q.status } : {}),
        },
        { loading: false, repeatCheck: false, signal },
      ),
    enabled: signedIn && q.imeis.length > 0 && q.start !== '' && q.end !== '',
    placeholderData: keepPreviousData,
    // an instruction still SENT changes when its device fetches and acknowledges it
    refetchInterval: (query) => (query.state.data?.List.some((i) => i.Status === 'SENT') ? HISTORY_REFRESH_MS : false),
  });
}

export function useWithdraw() {
  const client = useQueryClient();
  const zone = useZone();
  return useMutation({
    // the refusal ("older than 2 minutes") is shown on the row, not as a toast
    mutationFn: ({ imei, id }: { imei: string; id: string }) => call(WithdrawInstruction, { imei, instructionId: id, timeZone: zone }, { notify: false }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.instructions }),
  });
}
