import { PageHeader } from '../components/ui/PageHeader.tsx';
import { business, mailHref } from '../content/business.ts';
import { seo } from '../lib/seo.ts';

export const meta = () =>
  seo({
    title: 'Privacy Policy',
    description: `How ${business.name} collects, uses and protects the details you send through this website, under the Privacy Act 2020.`,
    path: '/privacy-policy',
  });

export default function PrivacyPolicy() {
  return (
    <PageHeader
      title="Privacy Policy"
      intro={
        <p>
          When you ask us for a quote or a call back, we collect only what we need to reply: your
          name, e-mail, phone number and the details of your glass job. We follow the Privacy Act
          2020, and you can ask to see or correct what we hold at any time by e-mailing{' '}
          <a href={mailHref}>{business.email}</a>.
        </p>
      }
    />
  );
}
