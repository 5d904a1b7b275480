import { formatLongDateNz } from '../content/format-date.ts';
import { defaultFacts, OWNER_FACTS, type OwnerFactKey } from '../content/facts.ts';
import type { LaunchProblem } from '../content/launch-problems.ts';
import type { SiteContent } from '../content/site-content.ts';
import { IDENTITY_FIELDS } from './site-fields.ts';

/*
 * The launch checklist as /admin/site shows it (docs/operations.md, "Site
 * content"): each thing still missing from the draft in the owner's words,
 * beside a link to fix it (problemHref). The same checks give the command
 * line's report (launchProblems), whose words name the content's fields;
 * these never do.
 */

/** One line of the checklist: what is still missing, in a sentence. */
export function checklistLine(problem: LaunchProblem, content: SiteContent): string {
  switch (problem.section) {
    case 'identity': {
      if (problem.field === 'map' || problem.field === 'mapEmbedUrl') {
        return 'The map still shows the example place: paste your Google Maps link or type your address.';
      }
      const label = IDENTITY_FIELDS.find((field) => field.name === problem.field)?.label;
      return label
        ? `${label}: still the example. Put your own in.`
        : 'A business detail is still the example. Put your own in.';
    }
    case 'hours': {
      const key = problem.field?.split('.')[1];
      const fact = (OWNER_FACTS as readonly string[]).includes(key ?? '')
        ? defaultFacts[key as OwnerFactKey]
        : null;
      return fact
        ? `Check and confirm: ${fact.question}`
        : 'A fact on the site is not yet confirmed: check it, then confirm it.';
    }
    case 'offers': {
      const offer = content.offers.find((item) => item.id === problem.item);
      const name = offer ? `The offer “${offer.title}”` : 'An offer';
      if (problem.field === 'validUntil' && offer) {
        return `${name} ended on ${formatLongDateNz(offer.validUntil)}: give it a new end date or remove it.`;
      }
      return `${name} is an example, not a real offer: change it to a real one or remove it.`;
    }
    case 'testimonials': {
      const review = content.testimonials.find((item) => item.id === problem.item);
      const name = review ? `The review by ${review.name}` : 'A review';
      return `${name} is an example, not a real customer’s: replace it with a real review (with the customer’s permission) or remove it.`;
    }
    default:
      return problem.message;
  }
}
