import { useEffect } from 'react';
import { ButtonLink, CallButton } from '../components/ui/ButtonLink.tsx';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { trackThankYou } from '../lib/analytics.ts';
import { seo } from '../lib/seo.ts';

export const meta = () =>
  seo({
    title: 'Thank You',
    description: 'Thank you for your enquiry. Our team will be in touch within 24 hours.',
    path: '/thank-you',
    noindex: true,
  });

export default function ThankYou() {
  useEffect(() => trackThankYou(), []);
  return (
    <PageHeader
      title="Thank you, we have your request"
      intro={
        <p>
          A member of our team will contact you within 24 hours to talk through your glass job. If
          it is urgent, please call us now.
        </p>
      }
      actions={
        <>
          <ButtonLink to="/" variant="secondary">
            Back to Home
          </ButtonLink>
          <CallButton variant="primary">Call Now</CallButton>
        </>
      }
    />
  );
}
