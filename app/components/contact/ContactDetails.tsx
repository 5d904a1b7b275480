import { business, fullAddress, mailHref, telHref } from '../../content/business.ts';
import { Icon } from '../ui/Icon.tsx';

/** docs/screens.md#contact-page: phone, e-mail, street address and service hours. */
export function ContactDetails({ headingId }: { headingId: string }) {
  return (
    <div className="contact-card">
      <h2 id={headingId}>Get in touch</h2>
      <address>
        <dl className="contact-details">
          <div className="contact-details__row">
            <dt>
              <Icon name="phone" size={22} /> Phone
            </dt>
            <dd>
              <a href={telHref} className="contact-details__phone">
                {business.phone.display}
              </a>
            </dd>
          </div>
          <div className="contact-details__row">
            <dt>
              <Icon name="mail" size={22} /> E-mail
            </dt>
            <dd>
              <a href={mailHref}>{business.email}</a>
            </dd>
          </div>
          <div className="contact-details__row">
            <dt>
              <Icon name="map-pin" size={22} /> Address
            </dt>
            <dd>{fullAddress}</dd>
          </div>
        </dl>
      </address>
      <h3 className="contact-card__subheading">
        <Icon name="clock" size={22} /> Service hours
      </h3>
      <ul className="hours-list">
        {business.hours.map((hours) => (
          <li key={hours.label}>{hours.label}</li>
        ))}
        <li className="hours-list__emergency">{business.emergency.hours} emergency service</li>
      </ul>
    </div>
  );
}
