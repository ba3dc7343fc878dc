/**
 * React Query for the pages that fetch (login, subscribe, dashboard…). Kept out of _app so marketing pages never
 * download it. One client per mounted provider, created once (not on every render).
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from '@/lib/queryClient';

export default function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
