import { describe, expect, it } from 'vitest';
import { isTerminalSmtpError } from './smtp';

describe('isTerminalSmtpError', () => {
  it('gives up on a refused recipient', () => {
    expect(isTerminalSmtpError({ code: 'EENVELOPE', responseCode: 550 })).toBe(true);
    expect(isTerminalSmtpError({ code: 'EENVELOPE', responseCode: 553 })).toBe(true);
    expect(isTerminalSmtpError({ code: 'EENVELOPE' })).toBe(true);
  });

  it('retries temporary failures, lost connections and configuration problems', () => {
    expect(isTerminalSmtpError({ code: 'EENVELOPE', responseCode: 451 })).toBe(false);
    expect(isTerminalSmtpError({ code: 'ECONNECTION' })).toBe(false);
    expect(isTerminalSmtpError({ code: 'EAUTH', responseCode: 535 })).toBe(false);
    expect(isTerminalSmtpError(new Error('socket hang up'))).toBe(false);
  });
});
