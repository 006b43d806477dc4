import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CreateFence,
  DeleteFence,
  EnableFence,
  ExportFences,
  type FenceExportFileType,
  GetFenceList,
  GetRuleListByType,
  ImportShp,
  UpdateFence,
  type Fence,
  type FenceRule,
} from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call, download, isApiError, upload } from '../../../lib/api';
import { useSignedIn, useZone } from '../../../lib/session';

/** The geofence screen's calls (§7.2 Fence/*): the list, a fence's rules, create/update/enable/delete, .shp import. */

export const fenceKeys = {
  all: ['fences'] as const,
  list: (zone: string, lang: string) => ['fences', 'list', zone, lang] as const,
  rules: (id: string, zone: string, lang: string) => ['fences', 'rules', id, zone, lang] as const,
};

/** How often a synchronizing device rule is asked about again (it changes when the device next reports). */
const SYNC_POLL_MS = 10_000;

/** The list holds every fence of the organisation (one page of the call's largest size). */
export const FENCE_PAGE_SIZE = 100;

export function useFenceList() {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: fenceKeys.list(zone, lang),
    queryFn: ({ signal }) => call(GetFenceList, { currentPage: 1, pageSize: FENCE_PAGE_SIZE, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: signedIn,
    // a fence whose device rules are still synchronizing (§4) is read again until they are synchronized
    refetchInterval: (q) => (q.state.data?.List.some((f) => f.detail.DeviceRule > 0 && f.detail.Synchronized === 0) ? SYNC_POLL_MS : false),
  });
}

/** A fence's rules (one per device it names, with the sync state of device rules, §4). */
export function useFenceRules(fenceId: string | null) {
  const zone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: fenceKeys.rules(fenceId ?? '', zone, lang),
    queryFn: ({ signal }): Promise<{ List: FenceRule[] }> => call(GetRuleListByType, { fenceId: fenceId!, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: signedIn && fenceId !== null,
    // a device rule synchronizes when the device next reports: asked again while one is still synchronizing
    refetchInterval: (q) => (q.state.data?.List.some((r) => r.Synchronized === 0) ? SYNC_POLL_MS : false),
  });
}

/** The server's refusal, as it says it (the envelope's message names the field and why). */
export function refusalOf(error: unknown): string | null {
  if (isApiError(error) && (error.kind === 'code' || error.kind === 'http' || error.kind === 'silent')) return error.info.msg ?? error.message;
  return null;
}

export function useSaveFence() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: Record<string, unknown> }): Promise<Fence> =>
      id === null
        ? call(CreateFence, body as Parameters<typeof call<typeof CreateFence>>[1], { notify: false })
        : call(UpdateFence, { ...body, fenceId: id } as Parameters<typeof call<typeof UpdateFence>>[1], { notify: false }),
    onSettled: () => client.invalidateQueries({ queryKey: fenceKeys.all }),
  });
}

export function useEnableFence() {
  const client = useQueryClient();
  const zone = useZone();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => call(EnableFence, { fenceId: id, enabled: enabled ? 1 : 0, timeZone: zone }, { loading: false }),
    onSettled: () => client.invalidateQueries({ queryKey: fenceKeys.all }),
  });
}

export function useDeleteFence() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(DeleteFence, { fenceId: id }),
    onSettled: () => client.invalidateQueries({ queryKey: fenceKeys.all }),
  });
}

export interface ImportArgs {
  file: File;
  settings: Record<string, unknown>;
  onProgress: (sent: number, total: number) => void;
  signal: AbortSignal;
}

/** Uploads one .shp with the settings every fence it makes gets (all or none are stored). */
export function useImportShp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, settings, onProgress, signal }: ImportArgs) => {
      // the fields first: the server checks them before it takes a byte of the file
      const form = new FormData();
      form.append('settings', JSON.stringify(settings));
      form.append('file', file, file.name);
      return upload(ImportShp, form, { loading: false, notify: false, onUploadProgress: onProgress, signal });
    },
    onSettled: () => client.invalidateQueries({ queryKey: fenceKeys.all }),
  });
}

/** Downloads the fences the user sees as one GeoJSON or KML file (its name the server's); answers the name. */
export function exportFences(fileType: FenceExportFileType, timeZone: string): Promise<string> {
  return download(ExportFences, { fileType, timeZone });
}
