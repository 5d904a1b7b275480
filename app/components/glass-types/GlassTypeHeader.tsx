import { ButtonLink, CallButton } from '../ui/ButtonLink.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';

/** The opening of a glass type page: title, intro, headline figures, the picture and the calls. */
export function GlassTypeHeader({
  title,
  intro,
  keyFigures,
  image,
  quoteText,
}: {
  title: string;
  intro: string;
  keyFigures: readonly string[];
  image: { src: string; alt: string; width: number; height: number };
  quoteText: string;
}) {
  return (
    <div className="page-header page-header--split">
      <div className="container page-header__inner">
        <div className="page-header__text">
          <p className="eyebrow">Premium glass</p>
          <h1>{title}</h1>
          <div className="page-header__intro">
            <p>{intro}</p>
          </div>
          <ul className="figure-chips" aria-label="Key figures">
            {keyFigures.map((figure) => (
              <li key={figure}>{figure}</li>
            ))}
          </ul>
          <div className="button-row">
            <ButtonLink to="/quote" size="lg">
              {quoteText}
            </ButtonLink>
            <CallButton size="lg" />
          </div>
        </div>
        <div className="page-header__aside">
          <Illustration
            src={image.src}
            alt={image.alt}
            width={image.width}
            height={image.height}
            priority
            className="glass-hero__image"
          />
        </div>
      </div>
    </div>
  );
}

/** A titled card with an icon badge, used for applications and benefits. */
export function TitledCard({
  title,
  description,
  icon,
}: {
  title: string;
  description: string;
  icon: IconName;
}) {
  return (
    <li className="info-card">
      <span className="icon-badge">
        <Icon name={icon} size={24} />
      </span>
      <h3 className="info-card__title">{title}</h3>
      <p>{description}</p>
    </li>
  );
}
