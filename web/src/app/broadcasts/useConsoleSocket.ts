import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { transferStore } from '../case-transfer/transfer-store';
import { useSession } from '../session';
import { currentBroadcastsKey } from './broadcasts-data';
import { ConsoleSocket } from './console-socket';

/**
 * Keeps this tab's console socket open while someone is signed in (mounted once, by the console
 * layouts' shell), and writes what it brings into the query cache the banner reads.
 */
export function useConsoleSocket(): void {
  const queryClient = useQueryClient();
  const { token } = useSession();
  useEffect(() => {
    if (!token) return;
    const socket = new ConsoleSocket(
      (current) => queryClient.setQueryData(currentBroadcastsKey, current),
      // Case transfers (issue 12): the prompt and the dashboard's offer read this store.
      { onCaseTransfer: transferStore.put, onOpenChange: transferStore.setSocketOpen },
    );
    socket.start();
    return () => socket.stop();
  }, [queryClient, token]);
}

/** `useConsoleSocket` as an element, for the console layouts' shell. */
export function ConsoleSocketConnection(): null {
  useConsoleSocket();
  return null;
}
