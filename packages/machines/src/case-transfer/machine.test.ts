import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import type { CaseTransferEvent } from './events';
import { caseTransferMachine } from './machine';
import { caseTransferStateOf, offerCaseTransfer, stepCaseTransfer } from './run';

const from = 'dispatcher-1';
const to = 'dispatcher-2';
const other = 'dispatcher-3';
const offeredAt = 1_000_000;
const ttlMs = 60_000;
const input = { fromUserId: from, toUserId: to, offeredAt, ttlMs };
const inTime = offeredAt + 59_999;
const late = offeredAt + ttlMs;

// Every event anyone could send, in time and too late, by each person involved and a stranger.
const events: CaseTransferEvent[] = [inTime, late].flatMap((at) => [
  ...[from, to, other].flatMap((by) => [
    { type: 'ACCEPT' as const, by, at },
    { type: 'DENY' as const, by, at },
    { type: 'CANCEL' as const, by, at },
  ]),
  { type: 'EXPIRE' as const, at },
]);

describe('the case-transfer machine', () => {
  it('reaches every state, and only by the event and person SPEC.md allows', () => {
    const paths = getShortestPaths(caseTransferMachine, { events, input });
    const byState = new Map(paths.map((path) => [String(path.state.value), path]));
    expect([...byState.keys()].sort()).toEqual(
      ['accepted', 'cancelled', 'denied', 'expired', 'offered'].sort(),
    );
    const lastEvent = (state: string) => byState.get(state)!.steps.at(-1)!.event;
    expect(lastEvent('accepted')).toEqual({ type: 'ACCEPT', by: to, at: inTime });
    expect(lastEvent('denied')).toEqual({ type: 'DENY', by: to, at: inTime });
    expect(lastEvent('cancelled')).toEqual({ type: 'CANCEL', by: from, at: inTime });
    expect(lastEvent('expired')).toMatchObject({ at: late });
  });

  it('takes no event at all once decided, whoever sends it', () => {
    for (const path of getShortestPaths(caseTransferMachine, { events, input })) {
      if (path.state.value === 'offered') continue;
      const actor = createActor(caseTransferMachine, { input }).start();
      for (const step of path.steps) actor.send(step.event);
      for (const event of events) expect(actor.getSnapshot().can(event)).toBe(false);
    }
  });

  it('refuses an accept by anyone but the colleague, and a cancel by anyone but the offerer', () => {
    const offer = offerCaseTransfer(input);
    expect(stepCaseTransfer(offer, { type: 'ACCEPT', by: from, at: inTime }).taken).toBe(false);
    expect(stepCaseTransfer(offer, { type: 'ACCEPT', by: other, at: inTime }).taken).toBe(false);
    expect(stepCaseTransfer(offer, { type: 'CANCEL', by: to, at: inTime }).taken).toBe(false);
    expect(stepCaseTransfer(offer, { type: 'EXPIRE', at: inTime }).taken).toBe(false);
    expect(caseTransferStateOf(offer)).toBe('offered');
  });

  it('turns an answer that comes too late into an expiry, stamped at the offer\u2019s end', () => {
    const step = stepCaseTransfer(offerCaseTransfer(input), {
      type: 'ACCEPT',
      by: to,
      at: late + 5,
    });
    expect(step).toMatchObject({ taken: true, state: 'expired', decidedAt: late });
  });

  it('survives a round trip through JSON, as it does through Postgres', () => {
    const offer = JSON.parse(JSON.stringify(offerCaseTransfer(input))) as ReturnType<
      typeof offerCaseTransfer
    >;
    const step = stepCaseTransfer(offer, { type: 'ACCEPT', by: to, at: inTime });
    expect(step).toMatchObject({ taken: true, state: 'accepted', decidedAt: inTime });
    if (!step.taken) throw new Error('not taken');
    const again = JSON.parse(JSON.stringify(step.persisted)) as typeof offer;
    expect(caseTransferStateOf(again)).toBe('accepted');
    expect(stepCaseTransfer(again, { type: 'DENY', by: to, at: inTime }).taken).toBe(false);
  });
});
