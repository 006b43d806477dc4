import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CreateFolder,
  DeleteFolder,
  GetFolderTree,
  GetTree,
  GetTreeState,
  MoveDevice,
  MoveFolder,
  SetExperienceFuncEnable,
  UpdateFolderName,
  UpdateRemarkName,
  type CallBody,
  type CallData,
  type CallDef,
  type TreeState,
} from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { useSignedIn, useZone, writeStoredUser } from '../../../lib/session';
import { buildIndex, linkIndex, reportedSince } from '../model';

/** The tree of every device the user may see, flattened once into the index the tree filters. */
export function useDeviceTree() {
  const signedIn = useSignedIn();
  const timeZone = useZone();
  // The server names folders in the caller's language (the root, the experience folder, "shared by").
  const lang = useLang();
  return useQuery({
    queryKey: [...queryKeys.tree, timeZone, lang],
    queryFn: ({ signal }) => call(GetTree, { timeZone }, { loading: false, repeatCheck: false, signal }),
    select: buildIndex,
    staleTime: 60_000,
    // A new language or zone reads the tree again: the screens built on it stay (a chosen fix, an open
    // detail) while it loads, and switch when it arrives.
    placeholderData: keepPreviousData,
    // without a session there is nothing to read
    enabled: signedIn,
  });
}

/** How often the tree's marks are read again: a device that reports shows it within this time. */
export const TREE_STATE_REFRESH_MS = 60_000;

const treeStateKey = [...queryKeys.tree, 'state'];

/**
 * Each device's last fix and expected report gap (GetTreeState), by IMEI, for the rows' online / late /
 * silent marks. Read again every minute while the tree shows and when the window comes back into focus:
 * the tree itself (GetTree) is read only when it changes, this moves with every fix. It sits under the
 * tree's key, so a tree change reads it again too. Quiet: a failed refresh keeps the last marks.
 *
 * When a device's last fix moved, what the screens show of it is read again, so that the details and the
 * lists do not say "never reported" beside a tree that says online: the device queries that name that
 * device, and those that name no device of the tree (the lists); not those of devices that did not report.
 */
export function useTreeStates() {
  const signedIn = useSignedIn();
  const client = useQueryClient();
  return useQuery({
    queryKey: treeStateKey,
    queryFn: async ({ signal }) => {
      const next = await call(GetTreeState, undefined, { loading: false, repeatCheck: false, notify: false, signal });
      const before = client.getQueryData<TreeState>(treeStateKey);
      const moved = before ? reportedSince(before, next) : new Set<string>();
      if (moved.size > 0) {
        const known = new Set(next.IMEI);
        void client.invalidateQueries({
          queryKey: queryKeys.devices,
          predicate: ({ queryKey }) => {
            const named = queryKey.filter((part): part is string => typeof part === 'string' && known.has(part));
            return named.length === 0 || named.some((imei) => moved.has(imei));
          },
        });
      }
      return next;
    },
    select: linkIndex,
    staleTime: TREE_STATE_REFRESH_MS / 2,
    refetchInterval: TREE_STATE_REFRESH_MS,
    refetchOnWindowFocus: true,
    enabled: signedIn,
  });
}

/** The organisation's folders, for the move-to picker. */
export function useFolderTree(enabled: boolean) {
  const lang = useLang();
  return useQuery({
    queryKey: [...queryKeys.folders, lang],
    queryFn: ({ signal }) => call(GetFolderTree, undefined, { loading: false, repeatCheck: false, signal }),
    enabled,
  });
}

/** `call` for a body the caller typed as the call's body (the tuple of optional arguments aside). */
const callWith = <C extends CallDef>(def: C, body: CallBody<C>): Promise<CallData<C>> =>
  (call as (d: C, b: CallBody<C>) => Promise<CallData<C>>)(def, body);

/** A tree change: the tree, the picker's folders and every device list and detail are read again. */
function useTreeChange<C extends CallDef>(def: C) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<C>) => callWith(def, body),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.tree }),
        client.invalidateQueries({ queryKey: queryKeys.folders }),
        client.invalidateQueries({ queryKey: queryKeys.devices }),
      ]),
  });
}

export const useCreateFolder = () => useTreeChange(CreateFolder);
export const useRenameFolder = () => useTreeChange(UpdateFolderName);
export const useDeleteFolder = () => useTreeChange(DeleteFolder);
export const useMoveFolder = () => useTreeChange(MoveFolder);
export const useMoveDevice = () => useTreeChange(MoveDevice);
export const useUpdateRemarkName = () => useTreeChange(UpdateRemarkName);

/**
 * The experience-devices switch (§1, §4): the flag goes to the server and is kept locally as '1'/'0';
 * the tree is read again (the experience folder comes and goes).
 */
export function useExperienceSwitch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => call(SetExperienceFuncEnable, { enabled: enabled ? 1 : 0 }),
    onSuccess: (_data, enabled) => {
      writeStoredUser({ experience: enabled ? '1' : '0' });
      return Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.tree }),
        client.invalidateQueries({ queryKey: queryKeys.devices }),
      ]);
    },
  });
}
