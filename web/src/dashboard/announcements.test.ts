import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_GAP_MS, AnnouncementQueue, FIX_INTERVAL_MS } from './announcements';

describe('what the dashboard announces', () => {
  let said: string[];
  let queue: AnnouncementQueue;
  beforeEach(() => {
    vi.useFakeTimers();
    said = [];
    queue = new AnnouncementQueue((text) => said.push(text));
  });
  afterEach(() => {
    queue.stop();
    vi.useRealTimers();
  });

  it('says the first fix at once, then at most one fix per interval: the newest', () => {
    queue.newFix('fix 1');
    vi.advanceTimersByTime(0);
    expect(said).toEqual(['fix 1']);
    for (let second = 2; second <= 20; second += 1) {
      queue.newFix(`fix ${second}`);
      vi.advanceTimersByTime(1000);
    }
    // 19 more fixes in 19 s: one said at 15 s (the newest then), the rest wait for the next.
    expect(said).toEqual(['fix 1', 'fix 16']);
    vi.advanceTimersByTime(FIX_INTERVAL_MS);
    expect(said).toEqual(['fix 1', 'fix 16', 'fix 20']);
  });

  it('never drops an event, and joins events that come together', () => {
    queue.event('Caller connected');
    vi.advanceTimersByTime(0);
    queue.event('SMS Received');
    queue.event('Caller Stopped Sharing');
    vi.advanceTimersByTime(ANNOUNCE_GAP_MS);
    expect(said).toEqual(['Caller connected', 'SMS Received. Caller Stopped Sharing']);
  });

  it('counts what does not fit in one announcement instead of reading it all', () => {
    queue.event('first');
    vi.advanceTimersByTime(0);
    for (let number = 1; number <= 50; number += 1)
      queue.event(`+1202555${number}: Text message delivered`);
    vi.advanceTimersByTime(ANNOUNCE_GAP_MS);
    expect(said[1]).toBe(
      '+12025551: Text message delivered. +12025552: Text message delivered. ' +
        '+12025553: Text message delivered. +12025554: Text message delivered. ' +
        '+12025555: Text message delivered. And 45 more updates in the log',
    );
  });

  it('an event is not held back by the fix interval; the waiting fix follows in its window', () => {
    queue.newFix('fix 1');
    vi.advanceTimersByTime(0);
    queue.newFix('fix 2');
    queue.event('SMS Received');
    vi.advanceTimersByTime(ANNOUNCE_GAP_MS);
    expect(said).toEqual(['fix 1', 'SMS Received']);
    vi.advanceTimersByTime(FIX_INTERVAL_MS);
    expect(said).toEqual(['fix 1', 'SMS Received', 'fix 2']);
  });
});
