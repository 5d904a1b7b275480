import { ButtonLink, CallButton } from '../components/ui/ButtonLink.tsx';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { business } from '../content/business.ts';
import { seo } from '../lib/seo.ts';

export const meta = () =>
  seo({
    title: 'About Us',
    description: `Local Tauranga glaziers since ${business.foundedYear}: 15+ years of glass repairs, replacement and installation across the western Bay of Plenty.`,
    path: '/about',
  });

export default function About() {
  return (
    <PageHeader
      eyebrow={`Since ${business.foundedYear}`}
      title="About Us"
      intro={
        <p>
          We are a local glazing team that has looked after Tauranga homes and businesses since{' '}
          {business.foundedYear}. More than fifteen years on, we still measure every job ourselves,
          explain the options in plain words and stand behind the work.
        </p>
      }
      actions={
        <>
          <ButtonLink to="/quote">Request a Free Quote</ButtonLink>
          <CallButton />
        </>
      }
    />
  );
}
