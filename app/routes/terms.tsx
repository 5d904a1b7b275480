import { PageHeader } from '../components/ui/PageHeader.tsx';
import { business } from '../content/business.ts';
import { seo } from '../lib/seo.ts';

export const meta = () =>
  seo({
    title: 'Terms',
    description: `The terms behind ${business.name}'s quotes, offers, workmanship promise and this website.`,
    path: '/terms',
  });

export default function Terms() {
  return (
    <PageHeader
      title="Terms"
      intro={
        <p>
          Our quotes are free and the final estimate is the final price: we ask for your approval
          before any extra work. These terms sit alongside your rights under the Consumer Guarantees
          Act 1993 and the Fair Trading Act 1986, which nothing here limits.
        </p>
      }
    />
  );
}
