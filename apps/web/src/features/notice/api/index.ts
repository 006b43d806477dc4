import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CallBody,
  DeleteNotice,
  EventViewed,
  EventViewedAll,
  GetEventCount,
  GetEventListByPage,
  GetEventSubscribe,
  GetNotice,
  GetNoticeList,
  GetNoticeUnReadCount,
  NoticeViewed,
  SetEventSubscribe,
} from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { queryKeys } from '../../../lib/queryKeys';
import { useSignedIn, useZone } from '../../../lib/session';

/**
 * The /notice screen's calls (§7.2 Notice/*, Event/*) and the avatar's unread count. Every change
 * invalidates queryKeys.notices or queryKeys.events, so the list, the count and the dot reload; live
 * delivery invalidates the same keys when a notice or an event arrives.
 */

/** How many notices the user has not read: the avatar's dot. */
export function useUnreadNoticeCount() {
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...queryKeys.notices, 'unread'],
    queryFn: async ({ signal }) => (await call(GetNoticeUnReadCount, {}, { loading: false, repeatCheck: false, notify: false, signal })).count,
    enabled: signedIn,
    staleTime: 30_000,
  });
}

/**
 * How many events the user has not read among the devices they can read (Event/GetCount, viewed 0): the
 * count on /notice's Events tab. Live delivery invalidates queryKeys.events, so it changes without a reload.
 */
export function useUnreadEventCount() {
  return useQuery({
    queryKey: [...queryKeys.events, 'unread'],
    queryFn: async ({ signal }) => (await call(GetEventCount, { viewed: 0 }, { loading: false, repeatCheck: false, notify: false, signal })).Count,
  });
}

export function useNoticeList() {
  const zone = useZone();
  return useQuery({
    queryKey: [...queryKeys.notices, 'list', zone],
    queryFn: async ({ signal }) => (await call(GetNoticeList, { timeZone: zone }, { loading: false, repeatCheck: false, signal })).list,
  });
}

/** The list and the count reload after a change; an open detail keeps what it shows (a deleted one can't be read again). */
const reloadNotices = (client: ReturnType<typeof useQueryClient>) =>
  client.invalidateQueries({ queryKey: queryKeys.notices, predicate: (q) => q.queryKey[1] !== 'one' });

/** One notice's detail (Notice/get), read when its dialog opens. */
export function useNotice(id: string | null) {
  const zone = useZone();
  return useQuery({
    queryKey: [...queryKeys.notices, 'one', id, zone],
    // the dialog shows its own error state (no notification): a notice deleted meanwhile is not an alarm
    queryFn: ({ signal }) => call(GetNotice, { Id: id!, timeZone: zone }, { loading: false, repeatCheck: false, notify: false, signal }),
    enabled: id !== null,
  });
}

export function useMarkNoticeRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(NoticeViewed, { Id: id }, { loading: false, repeatCheck: false }),
    onSettled: () => reloadNotices(client),
  });
}

export function useDeleteNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(DeleteNotice, { Id: id }),
    onSettled: () => reloadNotices(client),
  });
}

export type EventPageQuery = CallBody<typeof GetEventListByPage>;

export function useEventPage(query: EventPageQuery) {
  return useQuery({
    queryKey: [...queryKeys.events, 'page', query],
    queryFn: ({ signal }) => call(GetEventListByPage, query, { loading: false, repeatCheck: false, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useMarkEventsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => call(EventViewed, { eventIds: ids }, { loading: false, repeatCheck: false }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.events }),
  });
}

export function useMarkAllEventsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<typeof EventViewedAll>) => call(EventViewedAll, body),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.events }),
  });
}

/** The user's subscription of every device they can read (also the device filter's choices). */
export function useSubscriptions() {
  return useQuery({
    queryKey: [...queryKeys.events, 'subscriptions'],
    queryFn: async ({ signal }) => (await call(GetEventSubscribe, {}, { loading: false, repeatCheck: false, signal })).List,
    staleTime: 60_000,
  });
}

export function useSubscribe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<typeof SetEventSubscribe>) => call(SetEventSubscribe, body, { loading: false }),
    onSettled: () => client.invalidateQueries({ queryKey: [...queryKeys.events, 'subscriptions'] }),
  });
}
