import { PageHeader } from '../components/ui/PageHeader.tsx';
import { business, fullAddress, mailHref, telHref } from '../content/business.ts';
import { seo } from '../lib/seo.ts';

export const meta = () =>
  seo({
    title: 'Contact Us',
    description: `Call ${business.phone.display}, e-mail us or request a free quote. Glaziers based in Tauriko, Tauranga, with a 24/7 emergency service.`,
    path: '/contact',
  });

export default function Contact() {
  return (
    <>
      <PageHeader
        title="Contact Us"
        intro={
          <p>
            Call, e-mail or send us the details of your glass job. We reply to every enquiry within
            one working day, and answer the phone around the clock for emergencies.
          </p>
        }
      />
      <section className="section section--plain" aria-labelledby="contact-details">
        <div className="container">
          <h2 id="contact-details">Contact details</h2>
          <address>
            <ul className="contact-list">
              <li>
                Phone: <a href={telHref}>{business.phone.display}</a>
              </li>
              <li>
                E-mail: <a href={mailHref}>{business.email}</a>
              </li>
              <li>Address: {fullAddress}</li>
              <li>
                Hours: {business.hours.map((hours) => hours.label).join(', ')}; emergency service
                24/7
              </li>
            </ul>
          </address>
        </div>
      </section>
    </>
  );
}
