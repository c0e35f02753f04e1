import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { startLiveUpdates } from '../features/monitors/api/live';
import { createQueryClient } from './query-client';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  // One EventSource for the whole app, alive as long as the app is.
  useEffect(() => startLiveUpdates(client), [client]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
