import { describe, expect, it } from 'vitest';
import { parsePhone, parsePhoneLines } from './phone-lines';

describe('pasted phone numbers', () => {
  it('prepend +1 without a leading +, normalise to E.164 and keep each number once', () => {
    expect(
      parsePhoneLines('202 555 0170\n\n  +1 (202) 555-0171 \n2025550170\nnope\n+1202'),
    ).toEqual({
      lines: [
        { input: '202 555 0170', phoneNumber: '+12025550170' },
        { input: '+1 (202) 555-0171', phoneNumber: '+12025550171' },
        { input: '2025550170', phoneNumber: '+12025550170' },
        { input: 'nope', phoneNumber: null },
        { input: '+1202', phoneNumber: null },
      ],
      numbers: ['+12025550170', '+12025550171'],
    });
  });

  it('take numbers of other countries with their +', () => {
    expect(parsePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(parsePhone('')).toBeNull();
  });
});
