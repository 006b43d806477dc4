import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Exceedrestrict, GetDetailByIMEI, SendInstruction, type Exceed, type Instruction, type InstructionParamsInput, type InstrType } from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call, isApiError } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { useSignedIn, useZone } from '../../../lib/session';

/** The /instr screen's calls: the daily limit of the chosen devices, their batteries, and Send. */

/** Exceedrestrict (§9: 2 per device per day per type, the caller's day) for the chosen devices and a type. */
export function useExceed(imeis: readonly string[], type: InstrType, enabled: boolean) {
  const zone = useZone();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...queryKeys.instructions, 'exceed', [...imeis].sort(), type, zone],
    queryFn: ({ signal }): Promise<Exceed[]> => call(Exceedrestrict, { imeis: [...imeis], type, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: enabled && signedIn && imeis.length > 0,
  });
}

/** The details of each chosen device (voltage and battery type, for §9's battery warning), cached as /device caches them. */
export function useChosenDetails(imeis: readonly string[]) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQueries({
    queries: imeis.map((imei) => ({
      queryKey: [...queryKeys.devices, 'detail', imei, zone, lang],
      queryFn: ({ signal }: { signal: AbortSignal }) => call(GetDetailByIMEI, { imei, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
      enabled: signedIn,
      staleTime: 60_000,
    })),
  });
}

/** One Send's outcome: the instructions stored, or the server's refusal (it names each device and why). */
export type SendOutcome = { type: InstrType; ok: true; list: Instruction[] } | { type: InstrType; ok: false; message: string; data: unknown };

/**
 * Sends each type's instruction to the devices (one Send per type: the server stores all devices or none).
 * A refusal is not a toast: the screen shows it beside the devices.
 */
export function useSend() {
  const client = useQueryClient();
  const zone = useZone();
  return useMutation({
    mutationFn: async ({ imeis, params }: { imeis: readonly string[]; params: readonly InstructionParamsInput[] }): Promise<SendOutcome[]> => {
      const out: SendOutcome[] = [];
      for (const p of params) {
        try {
          const data = await call(SendInstruction, { imeis: [...imeis], params: p, timeZone: zone }, { notify: false });
          out.push({ type: p.Type, ok: true, list: data.List });
        } catch (e) {
          if (isApiError(e) && (e.kind === 'code' || e.kind === 'http')) out.push({ type: p.Type, ok: false, message: e.info.msg ?? e.message, data: e.info.data });
          else throw e;
        }
      }
      return out;
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.instructions }),
  });
}
