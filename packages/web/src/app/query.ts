import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    // Failures are shown to the user right away; retrying a 4xx would only repeat it.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
  },
});
