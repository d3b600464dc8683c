import type { CaseTransfer } from '@locus/contract';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useNow } from '../../dashboard/use-now';
import { modalWidths } from '../../public-site/modal-widths';
import { api, expect } from '../api';
import { useSession } from '../session';
import { secondsLeft, transferStateOf, transferStore, useTransferStore } from './transfer-store';

/** While the console socket is down, offers are polled this often. */
const POLL_MS = 5_000;
/** How long "the offer was withdrawn" stays up. */
const NOTICE_MS = 8_000;

/**
 * Offers made to this user, polled from `transfer-offers`: once when the console opens (an offer
 * made before this page loaded) and every few seconds only while the console socket is down. An
 * offer that was showing and is no longer listed is asked about (`check-transfer`), so the
 * prompt learns whether it was cancelled or expired.
 */
function useOfferPolling(userId: string | null): void {
  const socketOpen = useTransferStore((state) => state.socketOpen);
  const offers = useQuery({
    queryKey: ['case-transfer', 'offers', userId],
    enabled: userId !== null,
    queryFn: async () => {
      const listed = expect(await api.caseTransfer.transferOffers(), 200).offers;
      const listedIds = new Set(listed.map((offer) => offer.transferUuid));
      const vanished = Object.values(transferStore.get().transfers).filter(
        (known) =>
          known.to.id === userId &&
          known.status === 'offered' &&
          !listedIds.has(known.transferUuid),
      );
      const decided = await Promise.all(
        vanished.map(async (known) => {
          const checked = await api.caseTransfer.checkTransfer({
            params: { uuid: known.sessionUuid, phone: known.phoneNumber },
          });
          return checked.status === 200 ? checked.body.transfer : null;
        }),
      );
      return [...listed, ...decided.filter((transfer) => transfer !== null)];
    },
    refetchInterval: socketOpen ? false : POLL_MS,
    refetchOnWindowFocus: false,
    staleTime: 0,
    gcTime: 0,
  });
  useEffect(() => {
    for (const transfer of offers.data ?? []) transferStore.put(transfer);
  }, [offers.data]);
}

const withdrawnText = (transfer: CaseTransfer, state: string): string =>
  state === 'cancelled'
    ? `${transfer.from.name} withdrew the transfer of the case for ${transfer.phoneNumber}.`
    : `The transfer of the case for ${transfer.phoneNumber} from ${transfer.from.name} expired.`;

/**
 * SPEC.md §4 "Case transfer": the colleague's prompt, on every signed-in page (the console
 * layouts' shell mounts it, like the broadcast banner). Accept asks for the session's socket
 * token (`join-stream`), confirms the transfer with it, and opens the dashboard on the session;
 * Deny (or Escape: never an accept) marks it 0. An offer withdrawn or expired while showing
 * goes, with a short notice.
 */
export function CaseTransferPrompt() {
  const { user } = useSession();
  const userId = user?.id ?? null;
  const navigate = useNavigate();
  useOfferPolling(userId);
  const transfers = useTransferStore((state) => state.transfers);
  const mine = Object.values(transfers).filter((transfer) => transfer.to.id === userId);
  const hasOffers = mine.some((transfer) => transfer.status === 'offered');
  const now = useNow(1000, hasOffers);
  const showing = mine
    .filter((transfer) => transferStateOf(transfer, now) === 'offered')
    .sort((a, b) => a.offeredAt.localeCompare(b.offeredAt))[0];
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // On a case already, the accepted one would wait in this tab's memory only (lost on a
  // reload): Accept waits until that case is finished. Deny always works.
  const dashboardBusy = useTransferStore((state) => state.busy);
  const activeSession = useQuery({
    queryKey: ['case-transfer', 'active-session', userId],
    enabled: showing !== undefined && dashboardBusy === null,
    queryFn: async () => expect(await api.tracking.activeSession(), 200).session,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const busy =
    dashboardBusy ??
    (activeSession.data !== undefined && activeSession.data !== null
      ? activeSession.data.uuid !== showing?.sessionUuid
      : false);

  // The offer that was on screen: when it goes without this user answering, say why.
  const shown = useRef<CaseTransfer | null>(null);
  const answered = useRef(new Set<string>());
  useEffect(() => {
    const previous = shown.current;
    shown.current = showing ?? null;
    if (!previous || previous.transferUuid === showing?.transferUuid) return;
    if (answered.current.has(previous.transferUuid)) return;
    const latest = transferStore.get().transfers[previous.transferUuid] ?? previous;
    const state = transferStateOf(latest, Date.now());
    if (state === 'cancelled' || state === 'expired') setNotice(withdrawnText(latest, state));
  }, [showing]);
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  useEffect(() => setError(null), [showing?.transferUuid]);

  const accept = useMutation({
    mutationFn: async (transfer: CaseTransfer) => {
      const phone = transfer.phoneNumber;
      const { token } = expect(
        await api.caseTransfer.joinStream({
          params: { transferUuid: transfer.transferUuid, phone },
          body: {},
        }),
        200,
      );
      return expect(
        await api.caseTransfer.confirmTransfer({
          params: { uuid: transfer.sessionUuid, phone, socketToken: token },
          body: {},
        }),
        200,
      );
    },
    onSuccess: ({ transfer, session }) => {
      answered.current.add(transfer.transferUuid);
      transferStore.put(transfer);
      // The dashboard opens it: now if it is showing, or when it mounts.
      transferStore.setAcceptedSession(session);
      void navigate('/dashboard');
    },
    onError: (failure) =>
      setError(
        `The case could not be taken: ${failure instanceof Error ? failure.message : String(failure)}`,
      ),
  });
  const deny = useMutation({
    mutationFn: async (transfer: CaseTransfer) =>
      expect(
        await api.caseTransfer.markTransfer({
          params: { uuid: transfer.sessionUuid, phone: transfer.phoneNumber, mark: '0' },
          body: {},
        }),
        200,
      ),
    onSuccess: (transfer) => transferStore.put(transfer),
    onError: (failure) =>
      setError(
        `The answer could not be sent: ${failure instanceof Error ? failure.message : String(failure)}`,
      ),
  });
  const answering = accept.isPending || deny.isPending;
  const onDeny = () => {
    if (!showing || answering) return;
    answered.current.add(showing.transferUuid);
    deny.mutate(showing);
  };

  return (
    <>
      <Modal
        opened={showing !== undefined}
        onClose={onDeny}
        title="Case transfer"
        size={modalWidths.narrow}
        withCloseButton={false}
        closeOnClickOutside={false}
        zIndex={400}
        data-testid="case-transfer-prompt"
      >
        {showing && (
          <Stack gap="md">
            <Text size="sm" fw={600}>
              {showing.from.name} wants to transfer the case for {showing.phoneNumber} to you
            </Text>
            <Text size="sm" aria-live="off">
              {secondsLeft(showing, now)} seconds left to answer
            </Text>
            {busy && (
              <Alert color="yellow" p="xs" data-testid="case-transfer-busy">
                {/* The prompt covers the dashboard, so the case cannot be finished under it. */}
                You are tracking another case and cannot take this one. Deny it, or end your case
                and ask {showing.from.name} to offer it again.
              </Alert>
            )}
            {error && (
              <Alert color="red" role="alert" p="xs">
                {error}
              </Alert>
            )}
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={onDeny}
                disabled={answering}
                loading={deny.isPending}
              >
                Deny
              </Button>
              <Button
                data-autofocus
                onClick={() => accept.mutate(showing)}
                disabled={answering || busy}
                loading={accept.isPending}
              >
                Accept
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      {notice && (
        <Alert
          role="status"
          color="gray"
          withCloseButton
          closeButtonLabel="Close this notice"
          onClose={() => setNotice(null)}
          pos="fixed"
          bottom={16}
          left="50%"
          style={{ transform: 'translateX(-50%)', zIndex: 400, maxWidth: 415 }}
          data-testid="case-transfer-notice"
        >
          {notice}
        </Alert>
      )}
    </>
  );
}
