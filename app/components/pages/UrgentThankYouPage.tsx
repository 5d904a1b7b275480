import { ButtonLink } from '../ui/ButtonLink.tsx';
import { Icon } from '../ui/Icon.tsx';
import { business, telHref } from '../../content/business.ts';

/**
 * What to do about broken glass until help arrives: short, calm, in the
 * order a person needs them (docs/screens.md#urgent-thank-you-page).
 */
export const SAFETY_STEPS: readonly string[] = [
  'Keep children and pets out of the room until the glass is cleared away.',
  'Put on closed shoes, and gloves if you have them, before you go near the glass.',
  'Leave loose or hanging pieces in the frame. Do not pull shards out: they can slip and cut deeply.',
  'Pick up the pieces on the floor carefully and wrap them in newspaper or put them in a box, never loose in a bag.',
  'Cover the opening with heavy plastic or cardboard, taped to the frame rather than the glass, to keep out wind and rain.',
  'If anyone is hurt, or the damage leaves the building unsafe, call 111.',
];

/**
 * docs/screens.md#urgent-thank-you-page: after an urgent enquiry, the phone
 * number as a large call link before anything else, then the safety steps.
 */
export function UrgentThankYouPage() {
  const emergency = business.emergency.available;
  return (
    <>
      <div className="page-header urgent-thanks">
        <div className="container page-header__inner">
          <div className="page-header__text">
            <p className="eyebrow">Urgent request received</p>
            <h1>Call us now to get it made safe</h1>
            <a href={telHref} className="urgent-thanks__call">
              <Icon name="phone" size={28} />
              <span>
                Call <span className="urgent-thanks__number">{business.phone.display}</span>
              </span>
            </a>
            <div className="page-header__intro">
              <p>
                We have your request and are treating it as urgent. Ringing us is the quickest way
                to get a glazier to you
                {emergency ? `: our emergency line is open ${business.emergency.hours}.` : '.'}
              </p>
            </div>
          </div>
        </div>
      </div>
      <section className="section urgent-thanks__steps" aria-labelledby="urgent-until">
        <div className="container">
          <h2 id="urgent-until" className="thank-you__heading">
            Until we get there
          </h2>
          <ol className="urgent-thanks__list">
            {SAFETY_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p>
            <ButtonLink to="/" variant="secondary" size="lg">
              Back to Home
            </ButtonLink>
          </p>
        </div>
      </section>
    </>
  );
}
