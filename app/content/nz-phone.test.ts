import { describe, expect, it } from 'vitest';
import { dialledNumber, PHONE_MESSAGES } from './nz-phone.ts';

describe('dialledNumber: a New Zealand number as typed, in its international form', () => {
  it.each([
    ['07 555 0777', '+6475550777'],
    ['07 578 2468', '+6475782468'],
    ['(07) 578-2468', '+6475782468'],
    ['09 300 1234', '+6493001234'],
    ['03 477 1234', '+6434771234'],
    ['04 499 8888', '+6444998888'],
    ['06 835 1234', '+6468351234'],
    ['021 123 456', '+6421123456'],
    ['021 123 4567', '+64211234567'],
    ['021 1234 5678', '+642112345678'],
    ['022 123 4567', '+64221234567'],
    ['027 555 0199', '+64275550199'],
    ['0800 123 456', '+64800123456'],
    ['0800 1234 567', '+648001234567'],
    ['0508 838 383', '+64508838383'],
    ['+64 7 555 0777', '+6475550777'],
    ['+6475550777', '+6475550777'],
    ['+64 (0)7 555 0777', '+6475550777'],
    ['+64 21 123 4567', '+64211234567'],
    ['0064 7 555 0777', '+6475550777'],
    ['  07.555.0777  ', '+6475550777'],
  ])('%s dials %s', (typed, e164) => {
    expect(dialledNumber(typed)).toEqual({ ok: true, e164 });
  });

  it.each([
    ['', PHONE_MESSAGES.empty],
    ['   ', PHONE_MESSAGES.empty],
    ['call 07 555 0777', PHONE_MESSAGES.characters],
    ['07 555 0777 ext 2', PHONE_MESSAGES.characters],
    ['07 555 +0777', PHONE_MESSAGES.characters],
    ['555 0777', PHONE_MESSAGES.areaCode],
    ['+61 2 9999 0000', PHONE_MESSAGES.overseas],
    ['+1 415 555 0100', PHONE_MESSAGES.overseas],
    ['07 555 077', PHONE_MESSAGES.landline],
    ['07 555 07777', PHONE_MESSAGES.landline],
    ['07 055 0777', PHONE_MESSAGES.notDialable],
    ['021 123 45', PHONE_MESSAGES.mobile],
    ['021 1234 56789', PHONE_MESSAGES.mobile],
    ['0800 12 345', PHONE_MESSAGES.freephone],
    ['0800 1234 5678', PHONE_MESSAGES.freephone],
    ['0900 123 456', PHONE_MESSAGES.notDialable],
    ['05 555 0777', PHONE_MESSAGES.notDialable],
    ['123', PHONE_MESSAGES.notDialable],
    ['0'.repeat(31), PHONE_MESSAGES.tooLong],
  ])('%j is refused: %s', (typed, message) => {
    expect(dialledNumber(typed)).toEqual({ ok: false, message });
  });

  it('says why in plain words, naming the field', () => {
    for (const message of Object.values(PHONE_MESSAGES)) {
      expect(message).toMatch(/^Phone number: /);
      expect(message).not.toMatch(/E\.?164|international|regex|format/i);
    }
  });
});
