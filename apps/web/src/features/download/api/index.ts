import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CancelDownloadTask,
  CreateDownloadTask,
  DeleteDownloadTask,
  DownloadAccelerationArchive,
  DownloadDownloadTask,
  GetAccelerationArchiveList,
  GetDownloadTaskListByPage,
  type CallBody,
  type DownloadTask,
} from '@wildtrack/contract';
import { call, download } from '../../../lib/api';
import { useSignedIn, useZone } from '../../../lib/session';
import { isRunning } from '../model';

/** The /download screen's calls: download tasks (create, list, cancel, download, delete) and the daily ACC archives. */

const TASKS = ['download-tasks'] as const;
/** How often the list is asked again while a task of the page waits or runs (its progress bar). */
export const POLL_MS = 1000;

export function useTasks(currentPage: number, pageSize: number) {
  const zone = useZone();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...TASKS, currentPage, pageSize, zone],
    queryFn: ({ signal }) => call(GetDownloadTaskListByPage, { currentPage, pageSize, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: signedIn,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.List.some((x: DownloadTask) => isRunning(x.Status)) ? POLL_MS : false),
  });
}

export function useCreateTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<typeof CreateDownloadTask>) => call(CreateDownloadTask, body, { notify: false }),
    onSettled: () => client.invalidateQueries({ queryKey: TASKS }),
  });
}

export function useCancelTask() {
  const client = useQueryClient();
  const zone = useZone();
  return useMutation({
    mutationFn: (id: string) => call(CancelDownloadTask, { id, timeZone: zone }),
    onSettled: () => client.invalidateQueries({ queryKey: TASKS }),
  });
}

export function useDeleteTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(DeleteDownloadTask, { id }),
    onSettled: () => client.invalidateQueries({ queryKey: TASKS }),
  });
}

/** Saves a task's zip (a refusal, e.g. an expired file, is the reply's message, §8). */
export function useSaveTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => download(DownloadDownloadTask, { id }, { loading: false }),
    onError: () => client.invalidateQueries({ queryKey: TASKS }),
  });
}

/** The device's daily ACC archive files (§9 Archive: the last 3 closed days). */
export function useArchives(imei: string | undefined, currentPage: number, pageSize: number) {
  const zone = useZone();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ['download-archives', imei, currentPage, pageSize, zone],
    queryFn: ({ signal }) => call(GetAccelerationArchiveList, { imei: imei!, currentPage, pageSize, timeZone: zone }, { loading: false, repeatCheck: false, signal }),
    enabled: signedIn && imei !== undefined,
  });
}

export function useSaveArchive() {
  return useMutation({
    mutationFn: (v: { imei: string; archiveDate: string }) => download(DownloadAccelerationArchive, v, { loading: false }),
  });
}
