import { business, telHref } from '../../content/business.ts';
import { ButtonLink, buttonClass } from '../ui/ButtonLink.tsx';
import { Icon } from '../ui/Icon.tsx';
import type { OfferCardData } from './home-cards.ts';

/**
 * An offer card (docs/business-rules.md#offers): discount, title,
 * description, prices when present, 'Valid until', terms and the call to
 * action; the featured card has a highlight ring. An offer past its end date
 * stays listed, but says plainly that it has ended, so nobody is misled.
 */
export function OfferCard({ offer }: { offer: OfferCardData }) {
  const headingId = `offer-${offer.id}`;
  const classes = [
    'offer-card',
    offer.featured ? 'offer-card--featured' : '',
    offer.ended ? 'offer-card--ended' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <article className={classes} aria-labelledby={headingId}>
      <div className="offer-card__top">
        <p className="offer-card__discount">{offer.discount}</p>
        {offer.featured ? (
          <p className="offer-card__flag">
            <Icon name="award" size={16} />
            Featured offer
          </p>
        ) : null}
      </div>
      <h3 className="offer-card__title" id={headingId}>
        {offer.title}
      </h3>
      {offer.description ? <p className="offer-card__description">{offer.description}</p> : null}
      {offer.originalPrice || offer.discountedPrice ? (
        <p className="offer-card__prices">
          {offer.originalPrice ? (
            <span className="offer-card__was">
              Was <s>{offer.originalPrice}</s>
            </span>
          ) : null}
          {offer.discountedPrice ? (
            <span className="offer-card__now">
              Now <strong>{offer.discountedPrice}</strong>
            </span>
          ) : null}
        </p>
      ) : null}
      <p className="offer-card__valid">
        <Icon name="clock" size={16} />
        <span>
          Valid until <time dateTime={offer.validUntil.iso}>{offer.validUntil.text}</time>
        </span>
      </p>
      {offer.ended ? (
        <p className="offer-card__ended">This offer has ended: ask us about current pricing.</p>
      ) : null}
      <p className="offer-card__terms">
        <strong>Terms: </strong>
        {offer.terms}
      </p>
      <div className="offer-card__action">
        {offer.ctaLink === 'tel' ? (
          <a href={telHref} className={buttonClass(offer.featured ? 'primary' : 'secondary')}>
            <Icon name="phone" size={18} />
            {offer.ctaText}
            <span className="sr-only"> {business.phone.display}</span>
          </a>
        ) : (
          <ButtonLink to={offer.ctaLink} variant={offer.featured ? 'primary' : 'secondary'}>
            {offer.ctaText}
          </ButtonLink>
        )}
      </div>
    </article>
  );
}
