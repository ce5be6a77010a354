import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { ApiError } from '../api/http';
import { onSocketReady } from '../api/socket';
import { ToastHost } from '../components/toast';
import { ColorModeProvider } from '../theme/ColorModeProvider';
import { AuthProvider } from './auth/AuthContext';
import { AppRoutes } from './routes/AppRoutes';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // a 4xx answer will not change by asking again
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/**
 * At every realtime `ready` (the first connection, opened after the first screen showed, and every reconnection)
 * the screens' data is read again: events sent before the rooms were joined, or while the connection was down,
 * never reached this page. A read in flight is left to finish (`cancelRefetch: false`).
 */
const useRefetchWhenRealtimeReady = () =>
  useEffect(() => onSocketReady(() => void queryClient.invalidateQueries(undefined, { cancelRefetch: false })), []);

export const App = () => {
  useRefetchWhenRealtimeReady();

  return <AppTree />;
};

const AppTree = () => (
  <QueryClientProvider client={queryClient}>
    <ColorModeProvider>
      <BrowserRouter>
        <AuthProvider>
          <AppRoutes />
        </AuthProvider>
      </BrowserRouter>
      <ToastHost />
    </ColorModeProvider>
  </QueryClientProvider>
);
