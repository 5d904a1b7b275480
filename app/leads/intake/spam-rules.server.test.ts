import { describe, expect, it } from 'vitest';
import {
  hasAdvertWords,
  hasLink,
  messageKey,
  normaliseMessage,
  spamReason,
  type SpamInput,
} from './spam-rules.server.ts';

/** docs/operations.md#spam: each rule, and what it never catches. */

const lead = (overrides: Partial<SpamInput> = {}): SpamInput => ({
  name: 'Aroha Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  message: 'The ranch slider in the lounge has a cracked pane, can you replace it?',
  source: 'contact_form',
  trap: '',
  proof: 'absent',
  ...overrides,
});

/** A store in memory: the keys of earlier leads. */
const earlier =
  (...keys: Array<string | null>) =>
  async (key: string) =>
    keys.includes(key);
const none = earlier();

describe('the spam rules', () => {
  it('a filled trap is spam, even with a valid proof-of-work', async () => {
    expect(await spamReason(lead({ trap: 'x' }), none)).toBe('trap');
    expect(await spamReason(lead({ trap: 'x', proof: 'valid' }), none)).toBe('trap');
    // Only white space is an empty trap.
    expect(await spamReason(lead({ trap: ' \n' }), none)).toBeNull();
  });

  it('a proof-of-work invalid or used before is spam', async () => {
    expect(await spamReason(lead({ proof: 'invalid' }), none)).toBe('proof');
    expect(await spamReason(lead({ proof: 'replayed' }), none)).toBe('proof');
  });

  it('a valid proof-of-work with no trap is never spam, whatever else holds', async () => {
    const everything = lead({
      name: 'SEO https://rank.example',
      message: 'Bitcoin www.example.com first page of Google',
      proof: 'valid',
    });
    const key = messageKey(everything);
    expect(await spamReason(everything, earlier(key))).toBeNull();
  });

  it('without a proof-of-work and nothing else, a lead is not spam', async () => {
    expect(await spamReason(lead(), none)).toBeNull();
  });

  it('without a proof-of-work, a link in the name or the message is spam', async () => {
    for (const link of ['http://x.example', 'HTTPS://X.EXAMPLE/a', 'see WWW.example.com']) {
      expect(await spamReason(lead({ message: `Hello ${link} thanks` }), none)).toBe('link');
      expect(await spamReason(lead({ name: link }), none)).toBe('link');
    }
    // An address without a scheme or www. is no link: 'glass.co.nz' in a message stays.
    expect(hasLink('I emailed from aroha@glass.co.nz and rang 07 578 0000')).toBe(false);
  });

  it("without a proof-of-work, an advert's words are spam, as whole words only", async () => {
    expect(await spamReason(lead({ message: 'Affordable SEO packages for glaziers' }), none)).toBe(
      'words',
    );
    expect(await spamReason(lead({ name: 'Bitcoin Profits' }), none)).toBe('words');
    expect(hasAdvertWords('Get to the FIRST page of Google!')).toBe(true);
    // Inside another word, or a glass job's words: nothing.
    expect(hasAdvertWords('We moved from Seoul; the casing of the door is cracked')).toBe(false);
    expect(hasAdvertWords('Found you on Google, need a window replaced in Ōtūmoetai')).toBe(false);
  });

  it('without a proof-of-work, the same message as an earlier lead of the day is spam', async () => {
    const first = lead({ message: 'Kia ora, please quote for a new shower screen.' });
    const again = lead({
      name: 'Other Person',
      email: 'other@example.com',
      message: '  KIA ORA,\tplease quote for a new   shower screen.\n',
    });
    expect(messageKey(again)).toBe(messageKey(first));
    expect(await spamReason(again, earlier(messageKey(first)))).toBe('repeated');
    expect(await spamReason(again, none)).toBeNull();
  });

  it('a message under 20 characters is never compared', async () => {
    expect(normaliseMessage('  Quote   please ')).toBe('quote please');
    expect(messageKey(lead({ message: 'Call me back please' }))).toBeNull(); // 19 characters
    expect(messageKey(lead({ message: 'Call me back please!' }))).not.toBeNull(); // 20
    // Characters, not bytes: macrons count once.
    expect(messageKey(lead({ message: 'Tēnā koe, he matapihi' }))).not.toBeNull();
  });

  it("the call-back form's own message is compared with its sender", async () => {
    const message = 'Service type: Home Glass. Postal code: 3110';
    const a = lead({ source: 'hero_form', message });
    const b = lead({ source: 'hero_form', message, email: 'b@example.com', phone: '027 555 0202' });
    // Two neighbours asking the same day are two enquiries.
    expect(messageKey(a)).not.toBe(messageKey(b));
    expect(await spamReason(b, earlier(messageKey(a)))).toBeNull();
    // The same sender's again is a repeat.
    expect(await spamReason(a, earlier(messageKey(a)))).toBe('repeated');
  });

  it('asks the store only when nothing else caught the lead', async () => {
    let asked = 0;
    const counting = async () => {
      asked += 1;
      return false;
    };
    await spamReason(lead({ trap: 'x' }), counting);
    await spamReason(lead({ proof: 'valid' }), counting);
    await spamReason(lead({ message: 'http://x.example and more words here' }), counting);
    expect(asked).toBe(0);
    await spamReason(lead(), counting);
    expect(asked).toBe(1);
  });
});
