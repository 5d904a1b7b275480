import { Link } from 'react-router';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { sitemapIntro } from '../content/legal.ts';
import { seo } from '../lib/seo.ts';
import { sitePages, type PageGroup } from '../site-pages.ts';
import type { Route } from './+types/sitemap';

export function loader() {
  return {
    intro: sitemapIntro,
    pages: sitePages.map(({ path, title, group }) => ({ path, title, group })),
  };
}

export const meta = () =>
  seo({
    title: 'Sitemap',
    description:
      'Every page of the site in one list: services, glass types, advice articles and contact.',
    path: '/sitemap',
  });

const groups: readonly { group: PageGroup; title: string }[] = [
  { group: 'main', title: 'Main pages' },
  { group: 'services', title: 'Services' },
  { group: 'glass-types', title: 'Glass types' },
  { group: 'blog', title: 'Blog' },
  { group: 'legal', title: 'About this site' },
];

export default function Sitemap({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Sitemap" intro={<p>{loaderData.intro}</p>} />
      <section className="section section--plain" aria-label="All pages">
        <div className="container sitemap-groups">
          {groups.map(({ group, title }) => (
            <div key={group}>
              <h2>{title}</h2>
              <ul className="footer-links">
                {loaderData.pages
                  .filter((page) => page.group === group)
                  .map((page) => (
                    <li key={page.path}>
                      <Link to={page.path}>{page.title}</Link>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </div>
      </section>
    </>
  );
}
