import { ButtonLink, CallButton } from '../ui/ButtonLink.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { PageHeader } from '../ui/PageHeader.tsx';
import { business, telHref } from '../../content/business.ts';
import { facts } from '../../content/facts.ts';

/** Made when the page renders: the reply time is the published one. */
const nextSteps = (): ReadonlyArray<{ icon: IconName; title: string; text: string }> => [
  {
    icon: 'check',
    title: 'We read your request',
    text: 'A glazier, not a call centre, looks over what you sent and what the job is likely to need.',
  },
  {
    icon: 'phone',
    title: `We contact you within ${facts.enquiryReply}`,
    text: 'We ring or e-mail to ask any questions and, if it helps, book a time to measure up on site.',
  },
  {
    icon: 'file-text',
    title: 'You get a clear, fixed quote',
    text: 'The estimate we give is the price you pay. Nothing extra is done without your approval.',
  },
];

/** docs/screens.md#thank-you-page: confirmation, the promise to reply, home and call links. */
export function ThankYouPage() {
  return (
    <>
      <PageHeader
        eyebrow="Request received"
        title="Thank you, we have your request"
        intro={
          <p>
            A member of our team will contact you within {facts.enquiryReply} to talk through your
            glass job. If it is urgent, please call us now.
          </p>
        }
        actions={
          <>
            <CallButton variant="primary" size="lg">
              Call Now
            </CallButton>
            <ButtonLink to="/" variant="secondary" size="lg">
              Back to Home
            </ButtonLink>
          </>
        }
      />
      <section className="section thank-you" aria-labelledby="thank-you-next">
        <div className="container">
          <h2 id="thank-you-next" className="thank-you__heading">
            What happens next
          </h2>
          <ol className="thank-you__steps">
            {nextSteps().map((step) => (
              <li key={step.title} className="thank-you__step">
                <span className="icon-badge">
                  <Icon name={step.icon} />
                </span>
                <h3 className="thank-you__step-title">{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
          <p className="thank-you__urgent">
            Broken glass that cannot wait? Our emergency line is open {business.emergency.hours}:{' '}
            <a href={telHref}>{business.phone.display}</a>.
          </p>
        </div>
      </section>
    </>
  );
}
