import { QueryClient } from '@tanstack/react-query';

/**
 * The client already told the user about a failed call (§8), so queries do not retry: a retry would
 * repeat the notification. Screens show their own error state with a retry button instead.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
