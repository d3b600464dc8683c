import type { CaseTransfer } from '@locus/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { secondsLeft, transferStateOf, transferStore } from './transfer-store';

const offer = (offeredAt: number, change: Partial<CaseTransfer> = {}): CaseTransfer => ({
  transferUuid: '00000000-0000-4000-8000-000000000001',
  sessionUuid: '00000000-0000-4000-8000-000000000002',
  phoneNumber: '+12025550100',
  status: 'offered',
  from: { id: '00000000-0000-4000-8000-000000000003', name: 'Dana Dispatcher' },
  to: { id: '00000000-0000-4000-8000-000000000004', name: 'Devon Dispatcher' },
  offeredAt: new Date(offeredAt).toISOString(),
  expiresAt: new Date(offeredAt + 60_000).toISOString(),
  decidedAt: null,
  ...change,
});

// The store notes when an offer arrived by this clock: held still, so the counts are exact.
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-25T12:00:00.000Z'));
});
afterEach(() => {
  transferStore.clear();
  vi.useRealTimers();
});

describe('the transfer prompt countdown', () => {
  it('runs for the offer’s length from when this tab received it, whatever its clock says', () => {
    const received = Date.now();
    // This browser's clock is ten minutes ahead of the server's: the offer looks long expired.
    const transfer = offer(received - 600_000);
    transferStore.put(transfer);
    expect(transferStateOf(transfer, received)).toBe('offered');
    expect(secondsLeft(transfer, received)).toBe(60);
    expect(secondsLeft(transfer, received + 45_000)).toBe(15);
    expect(transferStateOf(transfer, received + 60_000)).toBe('expired');
  });

  it('hides an offer a slow clock would keep showing once its length has passed', () => {
    const received = Date.now();
    // Ten minutes behind: comparing expiresAt with this clock would offer Accept for 11 minutes.
    const transfer = offer(received + 600_000);
    transferStore.put(transfer);
    expect(transferStateOf(transfer, received + 59_000)).toBe('offered');
    expect(transferStateOf(transfer, received + 61_000)).toBe('expired');
    expect(secondsLeft(transfer, received + 61_000)).toBe(0);
  });

  it('takes the server’s decision as it is', () => {
    const at = Date.now();
    const accepted = offer(at, {
      status: 'accepted',
      decidedAt: new Date(at + 5_000).toISOString(),
    });
    transferStore.put(accepted);
    expect(transferStateOf(accepted, at + 600_000)).toBe('accepted');
  });
});
