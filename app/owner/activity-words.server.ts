import type { SiteContentSection } from '../content/site-content.ts';
import type { ActivityRecord } from '../db/activity/activity.server.ts';
import type { LeadStage, OwnerRecord, PushNotify } from '../db/store.server.ts';
import type { SafePhotoRefusal } from '../images/safe-photo.server.ts';
import { ACTIVITY } from '../leads/person-data.server.ts';
import { STAGE_WORDS } from './inbox.server.ts';
import { OWNER_ACTIVITY } from './owner-activity.ts';
import { NOTIFY_WORDS, PUSH_ACTIVITY } from './push-devices.server.ts';
import { ownerName } from './owner-name.ts';
import { REVIEW_ACTIVITY } from './review-requests.server.ts';
import { SERVER_ACTOR, SITE_ACTIVITY } from './site-activity.server.ts';
import { DECLINE_WORDS, isDeclineReason } from './site-reviews.server.ts';

/**
 * The activity list (/admin/activity) in an owner's words: each entry is
 * one sentence saying who did what ("Aroha added a passkey on this phone"),
 * never an action's name, an id or a command. The store keeps actions and
 * details as ids, names of things and counts (app/db/activity); this is the
 * one place that turns them into words, so an action without words here is
 * a test's failure (activity-words.server.test.ts), not a line of code on
 * the owner's screen.
 */

export { ownerName };

const DEVICE_WORDS: Record<string, { a: string; kind: 'phone' | 'tablet' | 'computer' }> = {
  iphone: { a: 'an iPhone', kind: 'phone' },
  'android-phone': { a: 'an Android phone', kind: 'phone' },
  'android-tablet': { a: 'an Android tablet', kind: 'tablet' },
  ipad: { a: 'an iPad', kind: 'tablet' },
  chromebook: { a: 'a Chromebook', kind: 'computer' },
  mac: { a: 'a Mac', kind: 'computer' },
  'windows-computer': { a: 'a Windows computer', kind: 'computer' },
  'linux-computer': { a: 'a Linux computer', kind: 'computer' },
};

const SECTION_WORDS: Record<SiteContentSection, string> = {
  identity: 'the business details',
  hours: 'the hours and facts',
  offers: 'the offers',
  testimonials: 'the testimonials',
  notice: 'the notice',
  jobPhotos: 'the job photos',
};

const REFUSAL_WORDS: Record<SafePhotoRefusal | 'missing', string> = {
  type: 'it was not a JPEG, PNG or WebP photo',
  size: 'it was too large',
  pixels: 'it had too many pixels',
  unreadable: 'it could not be read',
  missing: 'no photo was chosen',
};

export interface ActivityReader {
  /** The owners as they are now: the set-up link and removal lines name the owner by id. */
  owners: readonly Pick<OwnerRecord, 'id' | 'email'>[];
  /** The session of the owner reading the list (sessionTag), so a passkey made in it is "this phone". */
  sessionTag?: string;
}

export interface ActivityLine {
  sentence: string;
  /** The enquiry the line is about, for a link to it. */
  lead?: string;
}

function detailParts(detail: string): Map<string, string> {
  return new Map(
    detail
      .split(',')
      .map((part) => part.split('='))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One entry of the activity list as a sentence, and the enquiry it is about. */
export function describeActivity(
  entry: Pick<ActivityRecord, 'actor' | 'action' | 'detail'>,
  reader: ActivityReader = { owners: [] },
): ActivityLine {
  const parts = detailParts(entry.detail);
  const who =
    entry.actor === 'cli'
      ? 'Someone with access to the website’s server'
      : entry.actor === SERVER_ACTOR
        ? 'The website'
        : ownerName(entry.actor);
  // Set-up links and removals name the owner by id (an address cannot go in a detail).
  const ownerId = parts.get('owner') ?? (/^[0-9a-f-]{36}$/.test(entry.detail) ? entry.detail : '');
  const named = reader.owners.find((owner) => owner.id === ownerId);
  const them = named ? ownerName(named.email) : 'an owner';
  const section = SECTION_WORDS[parts.get('section') as SiteContentSection] ?? 'a part of the site';
  const version = parts.get('version') ?? '';
  const theVersion = version ? `version ${version}` : 'a version';
  const enquiries = count(Number(parts.get('count') ?? 0), 'enquiry', 'enquiries');
  const lead = parts.get('lead');
  switch (entry.action) {
    case OWNER_ACTIVITY.signedIn: {
      const way = parts.get('way') ?? entry.detail;
      if (way === 'setup')
        return { sentence: `${who} signed in for the first time, with a set-up link.` };
      if (way === 'link') return { sentence: `${who} signed in with a link sent by e-mail.` };
      return { sentence: `${who} signed in with a passkey.` };
    }
    case OWNER_ACTIVITY.signedOut:
      return { sentence: `${who} signed out.` };
    case OWNER_ACTIVITY.passkeyAdded: {
      const device = DEVICE_WORDS[parts.get('device') ?? ''];
      const here = reader.sessionTag !== undefined && parts.get('session') === reader.sessionTag;
      const on = here
        ? `this ${device?.kind ?? 'phone or computer'}`
        : (device?.a ?? 'a phone or computer');
      return { sentence: `${who} added a passkey on ${on}.` };
    }
    case PUSH_ACTIVITY.added:
    case PUSH_ACTIVITY.removed: {
      const device = DEVICE_WORDS[parts.get('device') ?? '']?.a ?? 'a phone or computer';
      if (entry.action === PUSH_ACTIVITY.removed)
        return { sentence: `${who} turned off alerts on ${device}.` };
      const gets = NOTIFY_WORDS[parts.get('notify') as PushNotify];
      return {
        sentence: gets
          ? `${who} turned on alerts on ${device}: ${gets.toLowerCase()}.`
          : `${who} turned on alerts on ${device}.`,
      };
    }
    case OWNER_ACTIVITY.added:
      return {
        sentence: named
          ? `${them} was made an owner and given a set-up link.`
          : 'A new owner was added and given a set-up link.',
      };
    case OWNER_ACTIVITY.setupLink:
      return { sentence: `${named ? them : 'An owner'} was given a new set-up link.` };
    case OWNER_ACTIVITY.removed:
      return { sentence: 'An owner was removed and signed out everywhere.' };
    case ACTIVITY.leadSaved: {
      const stage = STAGE_WORDS[parts.get('stage') as LeadStage];
      return {
        sentence: stage
          ? `${who} saved an enquiry, at the stage “${stage}”.`
          : `${who} saved an enquiry.`,
        lead,
      };
    }
    case ACTIVITY.leadSpam:
      return { sentence: `${who} moved an enquiry to spam: nothing more is sent on.`, lead };
    case ACTIVITY.leadNotSpam:
      return {
        sentence: `${who} took an enquiry out of spam: it is sent on to you as a new one.`,
        lead,
      };
    case ACTIVITY.deliveryRetried:
      return {
        sentence: (parts.get('target') ?? '').startsWith('email')
          ? `${who} sent an enquiry by e-mail again.`
          : `${who} sent an enquiry again to a service the website passes enquiries to.`,
        lead,
      };
    case ACTIVITY.leadAcknowledged:
      return { sentence: `${who} said “I’m on it” for an enquiry.`, lead };
    case ACTIVITY.leadEscalated: {
      const minutes = Number(parts.get('minutes') ?? 0);
      return {
        sentence:
          minutes > 0
            ? `The website sent an urgent enquiry to your phones and e-mail again: nobody had said “I’m on it” within ${count(minutes, 'minute', 'minutes')}.`
            : 'The website sent an urgent enquiry to your phones and e-mail again: nobody had said “I’m on it”.',
        lead,
      };
    }
    case REVIEW_ACTIVITY.asked:
      return {
        sentence: `${who} asked a customer for a review${parts.get('again') === '1' ? ' again' : ''}.`,
        lead,
      };
    case REVIEW_ACTIVITY.received:
      return {
        sentence: 'A customer sent a review: it waits for you to publish or decline it.',
        lead,
      };
    case ACTIVITY.personExported:
      return { sentence: `${who} downloaded everything about one person (${enquiries}).`, lead };
    case ACTIVITY.personDeleted:
      return { sentence: `${who} deleted one person’s enquiries (${enquiries}).` };
    case SITE_ACTIVITY.saved:
      return { sentence: `${who} saved changes to ${section}, not yet published.` };
    case SITE_ACTIVITY.conflict:
      return {
        sentence: `${who}’s changes to ${section} were not saved: someone else had saved them meanwhile.`,
      };
    case SITE_ACTIVITY.photoAdded:
      return { sentence: `${who} uploaded a job photo.` };
    case SITE_ACTIVITY.photoRefused: {
      const why = REFUSAL_WORDS[parts.get('reason') as SafePhotoRefusal | 'missing'];
      return {
        sentence: why
          ? `A job photo from ${who} was not taken: ${why}.`
          : `A job photo from ${who} was not taken.`,
      };
    }
    case SITE_ACTIVITY.published:
      return { sentence: `${who} published the site as ${theVersion}.` };
    case SITE_ACTIVITY.publishRefused: {
      const problems = Number(parts.get('problems') ?? 0);
      return {
        sentence: problems
          ? `${who} could not publish: ${count(problems, 'thing needs', 'things need')} fixing first.`
          : `${who} could not publish.`,
      };
    }
    case SITE_ACTIVITY.restored:
      return {
        sentence: `${who} brought back version ${parts.get('from') ?? ''} of the site, as ${theVersion}.`,
      };
    case SITE_ACTIVITY.reviewPublished:
      return {
        sentence: `${who} published a customer’s review on the site, as ${theVersion}.`,
        lead,
      };
    case SITE_ACTIVITY.reviewDeclined: {
      const reason = parts.get('reason') ?? null;
      const why = isDeclineReason(reason) ? DECLINE_WORDS[reason] : null;
      return {
        sentence: why
          ? `${who} declined a customer’s review, not to be published: ${why.charAt(0).toLowerCase()}${why.slice(1)}.`
          : `${who} declined a customer’s review, not to be published.`,
        lead,
      };
    }
    case SITE_ACTIVITY.reviewRemoved: {
      const reviews = count(
        Number(parts.get('count') ?? 0),
        'customer’s review',
        'customers’ reviews',
      );
      return {
        sentence: `${who} took ${reviews} off the site with that person’s enquiries, as ${theVersion}.`,
      };
    }
    case SITE_ACTIVITY.live:
      return { sentence: `The site’s ${theVersion} is live.` };
    case SITE_ACTIVITY.failed:
      return {
        sentence: `The site’s ${theVersion} could not be published; visitors still see the one before.`,
      };
    default:
      return { sentence: `${who} made a change.` };
  }
}
