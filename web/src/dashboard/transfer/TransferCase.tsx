import type { CaseTransfer, TransferCandidate } from '@locus/contract';
import type { CaseTransferState } from '@locus/machines';
import { Alert, Button, Group, Loader, Modal, Paper, Stack, Text } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, expect } from '../../app/api';
import {
  secondsLeft,
  transferStateOf,
  transferStore,
  useTransferStore,
} from '../../app/case-transfer/transfer-store';
import { modalWidths } from '../../public-site/modal-widths';
import { useNow } from '../use-now';

/** While the console socket is down, a pending offer's fate is polled this often. */
const POLL_MS = 5_000;

const fullName = (candidate: TransferCandidate) =>
  `${candidate.firstName} ${candidate.lastName}`.trim();

/** "Available", "Running 2 cases" or "Offline" (SPEC.md §4: a picker with their status). */
export function candidateStatus(candidate: TransferCandidate): string {
  if (!candidate.online) return 'Offline';
  if (candidate.activeCases === 0) return 'Available';
  return `Running ${candidate.activeCases} ${candidate.activeCases === 1 ? 'case' : 'cases'}`;
}

/** What the dispatcher who offered is told once the colleague (or the clock) has decided. */
export function outcomeText(transfer: CaseTransfer, state: CaseTransferState): string | null {
  const name = transfer.to.name;
  switch (state) {
    case 'denied':
      return `${name} declined. The case stays with you.`;
    case 'expired':
      return `${name} did not answer in time. The case stays with you.`;
    case 'cancelled':
      return `You cancelled the transfer to ${name}. The case stays with you.`;
    case 'accepted':
      return `Transferred to ${name}`;
    case 'offered':
      return null;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function CandidateList({
  sessionUuid,
  onOffer,
  offering,
}: {
  sessionUuid: string;
  onOffer: (candidate: TransferCandidate) => void;
  offering: boolean;
}) {
  const candidates = useQuery({
    queryKey: ['case-transfer', 'candidates', sessionUuid],
    queryFn: async () =>
      expect(await api.caseTransfer.transferCandidates({ params: { uuid: sessionUuid } }), 200)
        .candidates,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: 10_000,
  });
  if (candidates.isPending) return <Loader size="sm" aria-label="Loading colleagues" />;
  if (candidates.isError)
    return (
      <Alert color="red" role="alert" p="xs">
        The colleagues could not be loaded: {errorText(candidates.error)}
      </Alert>
    );
  if (candidates.data.length === 0)
    return <Text size="sm">Nobody else on your team can receive a case.</Text>;
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {candidates.data.map((candidate) => {
        const name = fullName(candidate);
        const status = candidateStatus(candidate);
        return (
          <Paper component="li" key={candidate.id} withBorder p="xs">
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Text size="sm" fw={600}>
                  {name}
                </Text>
                <Text size="xs" c={candidate.online ? undefined : 'dimmed'}>
                  {status}
                </Text>
              </div>
              <Button
                size="xs"
                disabled={!candidate.online || offering}
                onClick={() => onOffer(candidate)}
                aria-label={`Offer the case to ${name} (${status})`}
              >
                Offer
              </Button>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}

/**
 * SPEC.md §4 "Case transfer": "Transfer case" on a running session, the picker of colleagues,
 * the wait for their answer (with Cancel), and what became of the offer. The offer's state is
 * the case-transfer machine's (`transferStateOf`), driven by the console socket's
 * `case-transfer` frames (or by polling `check-transfer` while that socket is down).
 */
export function TransferCase({
  sessionUuid,
  phoneNumber,
  announce,
}: {
  sessionUuid: string;
  phoneNumber: string;
  announce: (text: string) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [offerUuid, setOfferUuid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const transfer = useTransferStore((state) =>
    offerUuid ? (state.transfers[offerUuid] ?? null) : null,
  );
  const socketOpen = useTransferStore((state) => state.socketOpen);
  const waiting = transfer?.status === 'offered';
  const now = useNow(1000, waiting);
  const state = transfer ? transferStateOf(transfer, now) : null;
  const outcome = transfer && state ? outcomeText(transfer, state) : null;

  // The console socket is down: ask for the offer's fate instead of waiting for a frame.
  const checked = useQuery({
    queryKey: ['case-transfer', 'check', sessionUuid, offerUuid],
    enabled: waiting && !socketOpen,
    queryFn: async () =>
      expect(
        await api.caseTransfer.checkTransfer({ params: { uuid: sessionUuid, phone: phoneNumber } }),
        200,
      ).transfer,
    refetchInterval: POLL_MS,
    gcTime: 0,
  });
  useEffect(() => {
    if (checked.data && checked.data.transferUuid === offerUuid) transferStore.put(checked.data);
  }, [checked.data, offerUuid]);

  // A reload loses the offer this page made: ask once, and a pending one shows as waiting
  // (with Cancel) again.
  const seed = useQuery({
    queryKey: ['case-transfer', 'seed', sessionUuid],
    queryFn: async () =>
      expect(
        await api.caseTransfer.checkTransfer({ params: { uuid: sessionUuid, phone: phoneNumber } }),
        200,
      ).transfer,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const seeded = useRef(false);
  useEffect(() => {
    if (seeded.current || seed.data === undefined) return;
    seeded.current = true;
    if (seed.data?.status !== 'offered') return;
    transferStore.put(seed.data);
    setOfferUuid((current) => current ?? seed.data!.transferUuid);
  }, [seed.data]);

  // Each outcome is said once, and shown: the picker opens again to say it.
  const said = useRef<string | null>(null);
  useEffect(() => {
    if (!transfer || !outcome || state === 'offered') return;
    const key = `${transfer.transferUuid}:${state}`;
    if (said.current === key) return;
    said.current = key;
    announce(outcome);
    if (state !== 'accepted') setOpened(true);
    else setOpened(false);
  }, [transfer, state, outcome, announce]);

  const offer = useMutation({
    mutationFn: async (candidate: TransferCandidate) =>
      expect(
        await api.caseTransfer.offerTransfer({
          params: { uuid: sessionUuid },
          body: { toUserId: candidate.id },
        }),
        201,
      ),
    onMutate: () => setError(null),
    onSuccess: (offered) => {
      transferStore.put(offered);
      // The session's log says "Transfer offered to …", and the live region reads the log.
      setOfferUuid(offered.transferUuid);
    },
    onError: (failure) => setError(`The case could not be offered: ${errorText(failure)}`),
  });
  const cancel = useMutation({
    mutationFn: async (pending: CaseTransfer) =>
      expect(
        await api.caseTransfer.markTransfer({
          params: { uuid: pending.sessionUuid, phone: pending.phoneNumber, mark: '0' },
          body: {},
        }),
        200,
      ),
    onMutate: () => setError(null),
    onSuccess: (cancelled) => transferStore.put(cancelled),
    // Most likely the colleague answered first: their answer arrives on the socket.
    onError: (failure) => setError(`The offer could not be cancelled: ${errorText(failure)}`),
  });

  const pending = transfer !== null && state === 'offered';
  const close = () => {
    setOpened(false);
    setError(null);
    // A decided offer is done with: next time the picker starts afresh.
    if (!pending) setOfferUuid(null);
  };

  return (
    <>
      <Button
        variant="light"
        leftSection={<IconArrowsExchange size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {pending && transfer
          ? `Transfer pending: ${secondsLeft(transfer, now)} s`
          : 'Transfer case'}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={`Transfer the case for ${phoneNumber}`}
        size={modalWidths.narrow}
        data-testid="transfer-case-modal"
      >
        <Stack gap="md">
          {pending && transfer ? (
            <>
              <Text size="sm" fw={600}>
                Waiting for {transfer.to.name} to answer…
              </Text>
              <Text size="sm">{secondsLeft(transfer, now)} seconds left</Text>
              <Group justify="flex-end">
                <Button
                  color="red"
                  variant="light"
                  onClick={() => cancel.mutate(transfer)}
                  loading={cancel.isPending}
                >
                  Cancel transfer
                </Button>
              </Group>
            </>
          ) : (
            <>
              {outcome && state !== 'accepted' && (
                <Alert role="status" color={state === 'cancelled' ? 'gray' : 'orange'} p="xs">
                  {outcome}
                </Alert>
              )}
              <Text size="sm">
                Choose a colleague of your team. Until they accept, the case stays with you.
              </Text>
              <CandidateList
                sessionUuid={sessionUuid}
                offering={offer.isPending}
                onOffer={(candidate) => offer.mutate(candidate)}
              />
            </>
          )}
          {error && (
            <Alert color="red" role="alert" p="xs">
              {error}
            </Alert>
          )}
        </Stack>
      </Modal>
    </>
  );
}
