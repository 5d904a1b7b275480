import { createHash } from 'node:crypto';
import type { SpamReason } from '../../db/store.server.ts';

/**
 * The spam rules (docs/operations.md#spam), in one place: which submissions
 * are kept as spam instead of being delivered. The lead service
 * (lead-service.server.ts) runs them on every lead, whichever door it came
 * through: a form with or without JavaScript, or a program's JSON.
 *
 * A lead is spam when
 * - the trap field is filled (a person never sees it), or
 * - it presents a proof-of-work that is invalid or used before, or
 * - it presents none and another signal holds: a link in the name or the
 *   message; words only advertisers use (search rankings, crypto, loans…);
 *   the same message, of 20 characters or more, as an earlier lead in the
 *   last 24 hours (the earlier one stays as it was).
 *
 * A valid proof-of-work and an empty trap are never spam. A form posted
 * without JavaScript has no proof-of-work, and that alone is never spam.
 *
 * Every pattern here is linear in its input (server/request-input.test.ts).
 */

/**
 * What the proof-of-work check said of a submission: `valid`, `invalid`
 * (wrong, expired, or signed by someone else), `replayed` (a solution
 * already used) or `absent` (none sent: no JavaScript, or a program).
 */
export type ProofVerdict = 'valid' | 'invalid' | 'replayed' | 'absent';

/** How long an earlier lead's message counts for the repeated-message rule. */
export const REPEAT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The shortest message the repeated-message rule compares, after normalising. */
export const REPEAT_MIN_CHARACTERS = 20;

/** What the rules read of a lead. */
export interface SpamInput {
  name: string;
  message: string;
  source: string;
  email: string;
  phone: string;
  /** The trap field's value ('' when empty or missing). */
  trap: string;
  proof: ProofVerdict;
}

/**
 * A link: `http://`, `https://` or `www.`, whatever its case. Plain
 * substring searches on the lower-cased text, so linear by construction.
 */
export function hasLink(text: string): boolean {
  const lower = text.toLowerCase();
  return lower.includes('http://') || lower.includes('https://') || lower.includes('www.');
}

/**
 * Phrases only advertising sends a glazier's form: search-engine offers,
 * crypto, loans and the like. Each is matched as whole words of the
 * normalised text (wordsOf), never inside another word. None of them is a
 * glass job's word; the corpus (app/leads/testing/spam-corpus) holds them
 * to that: a real enquiry caught fails its test.
 */
export const ADVERT_PHRASES: readonly string[] = [
  'seo',
  'backlink',
  'backlinks',
  'guest post',
  'guest posting',
  'domain authority',
  'search engine optimisation',
  'search engine optimization',
  'first page of google',
  'page 1 of google',
  'page one of google',
  'top of google',
  'google ranking',
  'google rankings',
  'rank your website',
  'ranking your website',
  'website traffic',
  'traffic to your website',
  'organic traffic',
  'lead generation',
  'crypto',
  'cryptocurrency',
  'bitcoin',
  'btc',
  'ethereum',
  'usdt',
  'forex',
  'binary options',
  'trading signals',
  'investment opportunity',
  'passive income',
  'casino',
  'viagra',
  'cialis',
  'payday loan',
  'business loan',
  'business funding',
  'unsubscribe',
  'opt out',
  'virtual assistant',
  'app development',
  'redesign your website',
  'website redesign',
];

/**
 * The text as space-separated lower-case words, with a space either end:
 * every run of characters that are not letters or digits is one space (a
 * linear pattern), so ' seo ' matches 'SEO,' and never 'seoul'.
 */
export function wordsOf(text: string): string {
  return ` ${text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
}

export function hasAdvertWords(text: string): boolean {
  const words = wordsOf(text);
  return ADVERT_PHRASES.some((phrase) => words.includes(` ${phrase} `));
}

/**
 * A message as the repeated-message rule compares it: Unicode-normalised,
 * lower-cased, every run of white space one space, trimmed.
 */
export function normaliseMessage(message: string): string {
  return message.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * The call-back form writes its message itself ('Service type: Home Glass.
 * Postal code: 3110'): two neighbours asking the same day would send the
 * same one. Such a message is compared with the sender's e-mail and phone.
 */
const CALLBACK_MESSAGE_START = 'service type: ';

/**
 * The digest the store keeps of a lead's message for the repeated-message
 * rule (never the message again), or null when it is too short to compare.
 */
export function messageKey(
  lead: Pick<SpamInput, 'message' | 'source' | 'email' | 'phone'>,
): string | null {
  const message = normaliseMessage(lead.message);
  if ([...message].length < REPEAT_MIN_CHARACTERS) return null;
  const formMade = lead.source === 'hero_form' && message.startsWith(CALLBACK_MESSAGE_START);
  const compared = formMade
    ? JSON.stringify([message, lead.email.trim().toLowerCase(), lead.phone.replace(/\D/g, '')])
    : message;
  return createHash('sha256').update(compared, 'utf8').digest('base64url');
}

/**
 * The rule that makes this lead spam, or null when none does. `seenBefore`
 * asks the store whether an earlier lead of the last 24 hours had the same
 * message key; it is asked last, and only when the other rules found nothing.
 */
export async function spamReason(
  lead: SpamInput,
  seenBefore: (key: string) => Promise<boolean>,
): Promise<SpamReason | null> {
  if (lead.trap.trim() !== '') return 'trap';
  if (lead.proof === 'invalid' || lead.proof === 'replayed') return 'proof';
  if (lead.proof === 'valid') return null;
  if (hasLink(lead.name) || hasLink(lead.message)) return 'link';
  if (hasAdvertWords(`${lead.name}\n${lead.message}`)) return 'words';
  const key = messageKey(lead);
  if (key !== null && (await seenBefore(key))) return 'repeated';
  return null;
}
