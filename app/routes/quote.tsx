import { PageHeader } from '../components/ui/PageHeader.tsx';
import { business } from '../content/business.ts';
import { seo } from '../lib/seo.ts';

export const meta = () =>
  seo({
    title: 'Request a Free Quote',
    description:
      'Tell us about your glass job and get a free, no-obligation quote from Tauranga glaziers. The final estimate is the final price.',
    path: '/quote',
  });

export default function Quote() {
  return (
    <PageHeader
      title="Request a Free Quote"
      intro={
        <p>
          Tell us what needs doing and we will get back to you with a free, fixed quote. Prefer to
          talk? Call {business.phone.display}, any time for emergencies.
        </p>
      }
    />
  );
}
