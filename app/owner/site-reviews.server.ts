import type { TestimonialCardData } from '../components/home/home-cards.ts';
import {
  checkSiteContent,
  checkSiteContentSection,
  type SiteTestimonial,
} from '../content/site-content.ts';
import type { ReviewDeclineReason, SentReviewRecord } from '../db/reviews/reviews.server.ts';
import { REVIEW_DECLINE_REASONS } from '../db/reviews/reviews.server.ts';
import type { AppStore, LeadWithDeliveries } from '../db/store.server.ts';
import type { SignedInOwner, SitePublishingControl } from './context.server.ts';
import { nzShortTime } from './inbox.server.ts';
import { SITE_ACTIVITY, siteActivity } from './site-activity.server.ts';
import { publishedContent } from './site-review-removal.server.ts';
import { testimonialPreview } from './site-items.server.ts';

/*
 * Reviews customers sent (docs/operations.md, "Reviews from customers"),
 * as the owner's testimonials page decides them: "Publish" puts one on the
 * site in one tap, "Decline" keeps it off with one of four reasons. A low
 * rating is never one of them.
 *
 * One tap publishes the review and nothing else: the new version is the
 * content visitors see (or the version on its way) with the review added,
 * and the review joins the draft too, so the next Publish keeps it. Other
 * changes the owners saved and did not publish stay waiting for their own
 * Publish: tapping "Publish" on a review never sends them live unasked.
 */

/** A sent review as the owner's page shows it. */
export interface WaitingReview {
  /** The request's id: the form's hidden field, never shown. */
  id: string;
  /** The review as the home page's card would show it. */
  card: TestimonialCardData;
  /** When the customer sent it, in New Zealand time. */
  sent: string;
  /** The enquiry's page. */
  leadHref: string;
  /** Who the enquiry was from, as the inbox names them. */
  leadName: string | null;
}

/** The reasons the owner may decline a review for, in their words. */
export const DECLINE_WORDS: Record<ReviewDeclineReason, string> = {
  offensive: 'It is offensive or abusive',
  personal_details: 'It gives someone’s personal details',
  not_about_our_work: 'It is not about our work',
  not_a_customer: 'It is not from one of our customers',
};

export { publishedContent, REVIEW_DECLINE_REASONS };

export function isDeclineReason(value: string | null): value is ReviewDeclineReason {
  return (REVIEW_DECLINE_REASONS as readonly string[]).includes(value ?? '');
}

/**
 * What the review shows the customer as: a homeowner or a business owner
 * when their enquiry says Home Glass or Business Glass (the home page's
 * call-back form), otherwise a homeowner, most of a glazier's customers;
 * the owner can change it with "Edit" once it is published.
 */
export function roleOfLead(
  lead: Pick<LeadWithDeliveries, 'service'> | null,
): SiteTestimonial['role'] {
  return lead?.service === 'Business Glass' ? 'Business Owner' : 'Homeowner';
}

/** The testimonial a sent review becomes. */
export function testimonialOfReview(
  sent: SentReviewRecord,
  lead: Pick<LeadWithDeliveries, 'service'> | null,
  id: number,
): SiteTestimonial {
  return {
    id,
    name: sent.review.display_name,
    role: roleOfLead(lead),
    location: sent.review.suburb,
    rating: sent.review.rating,
    review: sent.review.text,
    permission: true,
    leadId: sent.lead_id,
  };
}

/**
 * What the page says while visitors still see invented sample reviews
 * (the launch check reports them too): a real review joins them, and how
 * to take them off; null when the site shows none.
 */
export function samplesLine(
  shown: readonly Pick<SiteTestimonial, 'sample'>[],
  draft: readonly Pick<SiteTestimonial, 'sample'>[],
): string | null {
  const count = shown.filter((testimonial) => testimonial.sample).length;
  if (count === 0) return null;
  const one = count === 1;
  const start = `Your site still shows ${count} invented sample ${one ? 'review' : 'reviews'}. A real review you publish joins ${one ? 'it' : 'them'}`;
  return draft.some((testimonial) => testimonial.sample)
    ? `${start}: remove the samples below, then publish, before you launch.`
    : `${start}. You took ${one ? 'it' : 'them'} out of the draft: tap Publish at the top to take ${one ? 'it' : 'them'} off the site.`;
}

/** The sent reviews no owner has decided on, oldest first, as the page shows them. */
export async function waitingReviews(store: AppStore): Promise<WaitingReview[]> {
  const waiting = await store.listWaitingReviews();
  const reviews: WaitingReview[] = [];
  for (const sent of waiting) {
    const lead = await store.getLead(sent.lead_id);
    reviews.push({
      id: sent.id,
      card: testimonialPreview(testimonialOfReview(sent, lead, 1)),
      sent: nzShortTime(sent.review.submitted_at),
      leadHref: `/admin/leads/${encodeURIComponent(sent.lead_id)}`,
      leadName: lead?.name ?? null,
    });
  }
  return reviews;
}

/**
 * The enquiry each customer's review among `testimonials` came from, by
 * testimonial number: its page and who it was from, or nulls when the
 * enquiry has since been deleted (the retention purge). Testimonials the
 * owner typed have none.
 */
export async function reviewOrigins(
  store: AppStore,
  testimonials: readonly SiteTestimonial[],
): Promise<Map<number, { href: string | null; name: string | null }>> {
  const origins = new Map<number, { href: string | null; name: string | null }>();
  for (const testimonial of testimonials) {
    if (testimonial.leadId === undefined) continue;
    const lead = await store.getLead(testimonial.leadId);
    origins.set(
      testimonial.id,
      lead
        ? { href: `/admin/leads/${encodeURIComponent(lead.id)}`, name: lead.name }
        : { href: null, name: null },
    );
  }
  return origins;
}

/** How many sent reviews wait for an owner: the inbox's line. */
export async function waitingReviewCount(store: AppStore): Promise<number> {
  return (await store.listWaitingReviews()).length;
}

export type ReviewOutcome =
  | { kind: 'published'; version: number }
  | { kind: 'declined' }
  /** Decided meanwhile (by another owner, or a second tap), or no such review. */
  | { kind: 'gone' }
  /** No reason was chosen. */
  | { kind: 'no-reason' }
  /** The site's content would not pass with it (30 testimonials already). */
  | { kind: 'refused'; message: string };

async function sentReview(store: AppStore, id: string): Promise<SentReviewRecord | null> {
  if (id === '') return null;
  const request = await store.getReviewRequest(id);
  if (!request?.review || request.used_at === null || request.review.decision !== 'waiting') {
    return null;
  }
  return request as SentReviewRecord;
}

/** Appends to the draft's testimonials, on whatever revision it is at now. */
async function addToDraft(
  store: AppStore,
  owner: SignedInOwner,
  testimonial: SiteTestimonial,
): Promise<void> {
  // A save made meanwhile moves the revision on: read it again and append to that.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const section = (await store.siteContentDraft()).testimonials;
    const list = section.content.filter((item) => item.id !== testimonial.id);
    const saved = await store.saveSiteContentSection(
      'testimonials',
      [...list, testimonial],
      section.revision,
      owner.id || null,
    );
    if (saved.saved) return;
  }
  throw new Error(
    'the draft testimonials kept changing; the review is on the site but not in the draft',
  );
}

/**
 * "Publish" on a waiting review: the review, with the customer's consent
 * and its enquiry, becomes a testimonial of the version visitors see (and
 * of the draft), published as any version is. Only the review is
 * published; other saved changes wait.
 */
export async function publishReview(
  store: AppStore,
  owner: SignedInOwner,
  publishing: SitePublishingControl | undefined,
  id: string,
  now = new Date(),
): Promise<ReviewOutcome> {
  const sent = await sentReview(store, id);
  if (!sent) return { kind: 'gone' };
  const [base, draft, lead] = await Promise.all([
    publishedContent(store),
    store.siteContentDraft(),
    store.getLead(sent.lead_id),
  ]);
  // A number neither the site nor the draft uses, so the two never name two reviews alike.
  const testimonialId =
    Math.max(
      0,
      ...base.testimonials.map((t) => t.id),
      ...draft.testimonials.content.map((t) => t.id),
    ) + 1;
  const testimonial = testimonialOfReview(sent, lead, testimonialId);
  // Both lists must take it (at most 30 each) before anything is decided.
  const checked = checkSiteContent({ ...base, testimonials: [...base.testimonials, testimonial] });
  const inDraft = checkSiteContentSection('testimonials', [
    ...draft.testimonials.content,
    testimonial,
  ]);
  const problems = [
    ...(checked.ok ? [] : checked.problems),
    ...(inDraft.ok ? [] : inDraft.problems),
  ];
  if (!checked.ok || problems.length > 0) {
    const messages = [...new Set(problems.map((problem) => problem.message))];
    return { kind: 'refused', message: `It could not be added: ${messages.join('; ')}` };
  }
  // The decision first: of two taps at once, one publishes.
  const decided = await store.decideReview(
    sent.id,
    { decision: 'published', testimonial_id: testimonialId },
    owner.email,
    now.toISOString(),
  );
  if (!decided) return { kind: 'gone' };
  await addToDraft(store, owner, testimonial);
  const version = await store.createSiteContentVersion(checked.content, owner.id || null);
  await store.recordActivity(
    siteActivity(
      owner.email,
      SITE_ACTIVITY.reviewPublished,
      { lead: sent.lead_id, version: version.version },
      now,
    ),
  );
  publishing?.publishNow();
  return { kind: 'published', version: version.version };
}

/** "Decline" on a waiting review, with one of the four reasons. */
export async function declineReview(
  store: AppStore,
  owner: SignedInOwner,
  id: string,
  reason: string | null,
  now = new Date(),
): Promise<ReviewOutcome> {
  if (!isDeclineReason(reason)) return { kind: 'no-reason' };
  const sent = await sentReview(store, id);
  if (!sent) return { kind: 'gone' };
  const decided = await store.decideReview(
    sent.id,
    { decision: 'declined', reason },
    owner.email,
    now.toISOString(),
  );
  if (!decided) return { kind: 'gone' };
  await store.recordActivity(
    siteActivity(owner.email, SITE_ACTIVITY.reviewDeclined, { lead: sent.lead_id, reason }, now),
  );
  return { kind: 'declined' };
}
