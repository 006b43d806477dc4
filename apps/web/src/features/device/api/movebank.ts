import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CancelMovebankImport,
  GetMovebankImport,
  GetMovebankImportList,
  MOVEBANK_IMPORT_FINISHED,
  MOVEBANK_IMPORT_PARTS,
  MovebankImport,
  type MovebankImportJob,
} from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call, upload } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { useSignedIn, useZone } from '../../../lib/session';

/** The Movebank import from /device: the upload, the job's progress and report, cancel. */

const importsKey = ['movebank-imports'] as const;
/** How often a queued or running import is read again. */
export const IMPORT_POLL_MS = 500;

export const isActive = (job: MovebankImportJob | undefined): boolean => job !== undefined && !MOVEBANK_IMPORT_FINISHED.includes(job.Status);

/** The organisation's latest imports, read when the dialog opens (a running one shows again after a reload). */
export function useMovebankImports(enabled: boolean) {
  const signedIn = useSignedIn();
  const timeZone = useZone();
  // reasons and notices come in the caller's language
  const lang = useLang();
  return useQuery({
    queryKey: [...importsKey, 'list', timeZone, lang],
    queryFn: ({ signal }) => call(GetMovebankImportList, { timeZone }, { loading: false, repeatCheck: false, signal }),
    enabled: enabled && signedIn,
    staleTime: 0,
  });
}

/** One import, read every IMPORT_POLL_MS while it is queued or running. */
export function useMovebankImport(id: string | null) {
  const signedIn = useSignedIn();
  const timeZone = useZone();
  const lang = useLang();
  return useQuery({
    queryKey: [...importsKey, 'job', id, timeZone, lang],
    queryFn: ({ signal }) => call(GetMovebankImport, { id: id!, timeZone }, { loading: false, repeatCheck: false, signal }),
    enabled: id !== null && signedIn,
    refetchInterval: (query) => (query.state.data === undefined || isActive(query.state.data) ? IMPORT_POLL_MS : false),
  });
}

export interface StartImport {
  folderId: string;
  file: File;
  reference?: File | undefined;
  onProgress: (sent: number, total: number) => void;
  signal: AbortSignal;
}

export function useStartMovebankImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ folderId, file, reference, onProgress, signal }: StartImport) => {
      // the fields first: the server checks the folder before it takes a byte of the files
      const form = new FormData();
      form.append(MOVEBANK_IMPORT_PARTS.folderId, folderId);
      form.append(MOVEBANK_IMPORT_PARTS.file, file, file.name);
      if (reference) form.append(MOVEBANK_IMPORT_PARTS.reference, reference, reference.name);
      return upload(MovebankImport, form, { loading: false, onUploadProgress: onProgress, signal });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: importsKey }),
  });
}

export function useCancelMovebankImport() {
  const client = useQueryClient();
  const timeZone = useZone();
  const lang = useLang();
  return useMutation({
    mutationFn: (id: string) => call(CancelMovebankImport, { id, timeZone }, { loading: false }),
    onSuccess: (job) => {
      client.setQueryData([...importsKey, 'job', job.IdStr, timeZone, lang], job);
      return client.invalidateQueries({ queryKey: [...importsKey, 'list'] });
    },
  });
}

/** After an import stored something: the tree and the device lists show the new devices. */
export function useImportedRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: queryKeys.tree }), client.invalidateQueries({ queryKey: queryKeys.devices })]);
}
