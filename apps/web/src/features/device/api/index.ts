import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GetBeastInfo,
  GetBirdInfo,
  GetDetailByFolder,
  GetDetailByIMEI,
  GetOtherSpeciesInfo,
  GetWorkStatus,
  SaveBeastInfo,
  SaveBirdInfo,
  SaveOtherSpeciesInfo,
  SetSecondLevelFixEnable,
  SpeciesType,
  UpdateProperty,
  type CallBody,
  type DEVICE_SORT_FIELDS,
  type MountInfo,
} from '@wildtrack/contract';
import { useLang } from '../../../i18n';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { useSignedIn, useZone } from '../../../lib/session';

/** The /device screen's calls: the folder's device list, one device's details, animal info and work status. */

export type SortField = (typeof DEVICE_SORT_FIELDS)[number];
type ListBody = CallBody<typeof GetDetailByFolder>;
/** A page of a folder's devices: the call's own fields (the zone and `recursive` are added here). */
export type ListParams = Required<Pick<ListBody, 'folderId' | 'currentPage' | 'pageSize'>> & Pick<ListBody, 'sortField' | 'sortOrder'>;

export function useDeviceList(params: ListParams | null) {
  const timeZone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...queryKeys.devices, 'list', params, timeZone, lang],
    queryFn: ({ signal }) => {
      const p = params!;
      const body: ListBody = {
        folderId: p.folderId,
        currentPage: p.currentPage,
        pageSize: p.pageSize,
        recursive: true,
        timeZone,
        ...(p.sortField && p.sortOrder ? { sortField: p.sortField, sortOrder: p.sortOrder } : {}),
      };
      return call(GetDetailByFolder, body, { loading: false, repeatCheck: false, signal });
    },
    enabled: params !== null && signedIn,
    placeholderData: keepPreviousData,
  });
}

export function useDeviceDetail(imei: string | null) {
  const timeZone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...queryKeys.devices, 'detail', imei, timeZone, lang],
    queryFn: ({ signal }) => call(GetDetailByIMEI, { imei: imei!, timeZone }, { loading: false, signal }),
    enabled: imei !== null && signedIn,
    // A new language or zone reads the device again with the old answer on screen: the tabs (and an
    // animal-info form being edited) stay mounted.
    placeholderData: keepPreviousData,
  });
}

/** §3 SpeciesType: 2 bird, 3 beast, anything else the "other species" form. */
export type SpeciesForm = 'bird' | 'beast' | 'other';
export function speciesForm(speciesType: number): SpeciesForm {
  if (speciesType === SpeciesType.Bird) return 'bird';
  if (speciesType === SpeciesType.Beast) return 'beast';
  return 'other';
}

const GET_INFO = { bird: GetBirdInfo, beast: GetBeastInfo, other: GetOtherSpeciesInfo } as const;
const SAVE_INFO = { bird: SaveBirdInfo, beast: SaveBeastInfo, other: SaveOtherSpeciesInfo } as const;

export function useMountInfo(imei: string, form: SpeciesForm) {
  const timeZone = useZone();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...queryKeys.devices, 'mount', imei, form, timeZone],
    queryFn: async ({ signal }): Promise<MountInfo> =>
      (await call(GET_INFO[form], { imei, timeZone }, { loading: false, repeatCheck: false, signal })) as MountInfo,
    enabled: signedIn,
  });
}

export function useSaveMountInfo(form: SpeciesForm) {
  const client = useQueryClient();
  const timeZone = useZone();
  return useMutation({
    mutationFn: (info: MountInfo) => {
      const body = { ...info, timeZone };
      // The three calls differ only in the measures their schema accepts.
      return call(SAVE_INFO[form] as typeof SaveOtherSpeciesInfo, body as CallBody<typeof SaveOtherSpeciesInfo>);
    },
    onSuccess: (_d, info) => client.invalidateQueries({ queryKey: [...queryKeys.devices, 'mount', info.IMEI] }),
  });
}

export function useWorkStatus(imei: string) {
  const timeZone = useZone();
  const lang = useLang();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...queryKeys.devices, 'work', imei, timeZone, lang],
    queryFn: ({ signal }) => call(GetWorkStatus, { imei, timeZone }, { loading: false, repeatCheck: false, signal }),
    enabled: signedIn,
  });
}

/** Details and lists show the change; the tree carries SecondLevelFix too. */
function useDeviceChange() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.devices }),
      client.invalidateQueries({ queryKey: queryKeys.tree }),
    ]);
}

export function useSetSecondLevelFix() {
  const changed = useDeviceChange();
  return useMutation({
    mutationFn: (body: CallBody<typeof SetSecondLevelFixEnable>) => call(SetSecondLevelFixEnable, body),
    onSettled: changed,
  });
}

export function useUpdateProperty() {
  const changed = useDeviceChange();
  return useMutation({
    mutationFn: (body: CallBody<typeof UpdateProperty>) => call(UpdateProperty, body),
    onSuccess: changed,
  });
}
