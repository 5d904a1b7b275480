import type { ProofVerdict } from '../../intake/spam-rules.server.ts';
import {
  ASKS,
  BOT_NAMES,
  CLOSINGS,
  CRYPTO_PITCHES,
  FIRST_NAMES,
  GREETINGS,
  JOBS,
  LAST_NAMES,
  PLAIN_PITCHES,
  POSTCODES,
  SEO_PITCHES,
  SPAM_DOMAINS,
  SUBURBS,
  TE_REO_MESSAGES,
} from './words.ts';

/**
 * The spam corpus (docs/operations.md#spam): submissions of the kinds that
 * reach a small business's form, and real-looking enquiries to a glazier
 * in Tauranga, made from the word lists in words.ts by a seeded generator,
 * so the corpus is the same at every run. corpus.test.ts sends every entry,
 * in order, through the real lead service and a real store.
 *
 * How the proof-of-work is modelled: `proof` is the verdict the server's
 * check gives the submission (corpus.test.ts makes a real payload for it,
 * checks it, and fails if the check says otherwise). A person on the form with JavaScript sends a
 * valid one (their browser solved it while they typed); a person without
 * JavaScript sends none (`absent`); a program posting to the form or the
 * API sends none, or a made-up or replayed one (`invalid`, `replayed`); a
 * program driving a real browser solves it like a person (`valid`).
 */

export type CorpusDoor =
  /** A person on the form with JavaScript. */
  | 'form with JavaScript'
  /** A person on the form without JavaScript. */
  | 'form without JavaScript'
  /** A program posting fields or JSON. */
  | 'program'
  /** A program driving a real browser, which solves the proof-of-work. */
  | 'browser program';

export interface CorpusEntry {
  kind: 'spam' | 'real';
  /** What sort of submission it is, for the figures. */
  family: string;
  door: CorpusDoor;
  proof: ProofVerdict;
  /** Minutes after the corpus's first submission. */
  minute: number;
  lead: {
    name: string;
    email: string;
    phone: string;
    service: string;
    message: string;
    source: 'hero_form' | 'contact_form' | 'quote_form';
    glaze_check?: string;
  };
}

/** mulberry32: a small seeded generator, so every run makes the same corpus. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = seeded(0x5eed_2026);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const digits = (count: number) =>
  Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');

const mobile = () => `02${pick(['1', '2', '7'])} ${digits(3)} ${digits(4)}`;
const landline = () => `07 ${pick(['5', '54', '57'])}${digits(1)} ${digits(4)}`.slice(0, 12);
const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

/** Set once the corpus is shuffled into the order it arrives in (spamCorpus). */
const tick = () => 0;

function realEnquiry(index: number): CorpusEntry {
  const first = FIRST_NAMES[index % FIRST_NAMES.length] as string;
  const last = pick(LAST_NAMES);
  const name = `${first} ${last}`;
  const email = `${slug(first)}.${slug(last)}${index}@${pick(['gmail.com', 'xtra.co.nz', 'outlook.co.nz', 'icloud.com', 'slingshot.co.nz'])}`;
  const phone = random() < 0.75 ? mobile() : landline();
  // One in four from a phone or browser without JavaScript: no proof-of-work.
  const withoutScript = index % 4 === 3;
  const door: CorpusDoor = withoutScript ? 'form without JavaScript' : 'form with JavaScript';
  const proof: ProofVerdict = withoutScript ? 'absent' : 'valid';
  const minute = tick();
  if (index % 10 === 4) {
    // The call-back form: its message is the form's own words, so neighbours
    // asking the same day send the same one.
    return {
      kind: 'real',
      family: 'call-back form',
      door,
      proof,
      minute,
      lead: {
        name,
        email,
        phone,
        service: index % 20 === 4 ? 'Business Glass' : 'Home Glass',
        message: `Service type: ${index % 20 === 4 ? 'Business Glass' : 'Home Glass'}. Postal code: ${POSTCODES[index % 3]}`,
        source: 'hero_form',
      },
    };
  }
  if (index % 17 === 6) {
    const { service, message } = TE_REO_MESSAGES[index % TE_REO_MESSAGES.length]!;
    return {
      kind: 'real',
      family: 'te reo Māori',
      door,
      proof,
      minute,
      lead: {
        name,
        email,
        phone,
        service,
        message: `${message} (${pick(SUBURBS)}) ${pick(['Ngā mihi.', 'Nāku noa, nā ' + first + '.'])}`,
        source: 'contact_form',
      },
    };
  }
  const { service, job } = JOBS[(index * 7) % JOBS.length]!;
  const suburb = SUBURBS[(index * 11) % SUBURBS.length] as string;
  const ask = ASKS[index % ASKS.length]!(job, suburb);
  const greeting = pick(GREETINGS);
  const opened = greeting ? `${greeting} ${ask}` : ask.charAt(0).toUpperCase() + ask.slice(1);
  let message = `${opened} ${pick(CLOSINGS)}`;
  // A customer pointing at a product they like: a link, from the form with
  // JavaScript (a valid proof-of-work, so the link rule never applies).
  if (!withoutScript && index % 23 === 0) {
    message += ` Something like this one: https://www.example.co.nz/glass/${slug(job).slice(0, 12)}`;
  }
  if (index % 13 === 5) message = `${message}\n\nSent from my phone`;
  return {
    kind: 'real',
    family: withoutScript ? 'enquiry without JavaScript' : 'enquiry',
    door,
    proof,
    minute,
    lead: {
      name,
      email,
      phone,
      service,
      message,
      source: index % 3 === 0 ? 'quote_form' : 'contact_form',
    },
  };
}

function botLead(overrides: Partial<CorpusEntry['lead']>): CorpusEntry['lead'] {
  const name = pick(BOT_NAMES);
  return {
    name,
    email: `${slug(name)}${digits(3)}@${pick(['gmail.com', 'mail.example', 'outreach.example.com'])}`,
    phone: random() < 0.5 ? `+1 ${digits(3)} ${digits(3)} ${digits(4)}` : mobile(),
    service: pick(JOBS).service,
    message: '',
    source: pick(['contact_form', 'quote_form'] as const),
    ...overrides,
  };
}

function spamSubmissions(): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  const add = (family: string, door: CorpusDoor, proof: ProofVerdict, lead: CorpusEntry['lead']) =>
    entries.push({ kind: 'spam', family, door, proof, minute: tick(), lead });

  // SEO offers, without a link: the advert's words give them away.
  for (let index = 0; index < 40; index++) {
    add(
      'SEO offer',
      'program',
      'absent',
      botLead({
        message: `${pick(['Hi,', 'Hello', 'Dear Sir/Madam,'])} ${SEO_PITCHES[index % SEO_PITCHES.length]} Reply with your best number. Ref ${digits(4)}`,
      }),
    );
  }
  // SEO and marketing offers with a link.
  for (let index = 0; index < 30; index++) {
    const domain = pick(SPAM_DOMAINS);
    add(
      'offer with a link',
      'program',
      'absent',
      botLead({
        message: `${SEO_PITCHES[index % SEO_PITCHES.length]} See ${pick(['https://', 'http://', 'www.'])}${domain}/${digits(5)}`,
      }),
    );
  }
  // Crypto, loans and casinos, half with a link.
  for (let index = 0; index < 30; index++) {
    const link = index % 2 === 0 ? ` https://${pick(SPAM_DOMAINS)}/r/${digits(6)}` : '';
    add(
      'crypto and loans',
      'program',
      index % 5 === 0 ? 'invalid' : 'absent',
      botLead({ message: `${CRYPTO_PITCHES[index % CRYPTO_PITCHES.length]}${link}` }),
    );
  }
  // A link in the name, the message harmless.
  for (let index = 0; index < 20; index++) {
    add(
      'link in the name',
      'program',
      'absent',
      botLead({
        name: `${pick(['Visit', 'Free offer', 'Win'])} www.${pick(SPAM_DOMAINS)}`,
        message: `Hello, please get in touch with me about your ${pick(JOBS).service.toLowerCase()} prices ${digits(3)}`,
      }),
    );
  }
  // The same pitch, sent again and again from rotating names and addresses:
  // the first of each is let through (nothing else gives it away), every
  // later one within the day is caught.
  for (let round = 0; round < 5; round++) {
    for (const pitch of PLAIN_PITCHES) {
      add(
        'repeated message',
        'program',
        'absent',
        botLead({ message: round % 2 === 0 ? pitch : `  ${pitch.toUpperCase()}\n` }),
      );
    }
  }
  // Bots that fill every field, the hidden trap included.
  for (let index = 0; index < 30; index++) {
    add(
      'filled trap',
      'program',
      'absent',
      botLead({
        message: `I would like to know the price of ${pick(JOBS).job} ${digits(3)}`,
        glaze_check: pick(['1', 'yes', 'http://x.example', 'John']),
      }),
    );
  }
  // A proof-of-work made up, or one solved once and sent again.
  for (let index = 0; index < 20; index++) {
    add(
      'invalid or replayed proof-of-work',
      'program',
      index % 2 === 0 ? 'invalid' : 'replayed',
      botLead({
        message: `Hi, I am interested in ${pick(JOBS).job}. Please reply ${digits(4)}`,
      }),
    );
  }
  // A program driving a real browser, solving the proof-of-work like a
  // person, with a new pitch each time: no rule can tell it from a person.
  for (let index = 0; index < 10; index++) {
    add(
      'browser program, new pitch',
      'browser program',
      'valid',
      botLead({
        message: `Hello from ${pick(['Sydney', 'Manila', 'Austin', 'Leeds'])}, we offer ${pick(['payroll', 'signage', 'uniforms', 'printing', 'coffee machines'])} for trades businesses, call ${digits(3)} ${digits(4)}.`,
      }),
    );
  }
  return entries;
}

/**
 * Every entry, in the order they arrive: spam and real enquiries shuffled
 * together, one to five minutes apart (about a day in all), the same at
 * every call.
 */
export function spamCorpus(): CorpusEntry[] {
  random = seeded(0x5eed_2026);
  const entries = [
    ...Array.from({ length: 220 }, (_, index) => realEnquiry(index)),
    ...spamSubmissions(),
  ];
  // Fisher–Yates with the seeded generator.
  for (let index = entries.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [entries[index], entries[other]] = [entries[other]!, entries[index]!];
  }
  let minute = 0;
  return entries.map((entry) => {
    minute += 1 + Math.floor(random() * 5);
    return { ...entry, minute };
  });
}
