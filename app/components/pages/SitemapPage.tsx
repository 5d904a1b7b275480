import { PageHeader } from '../ui/PageHeader.tsx';
import type { PageGroup, SitePage } from '../../site-pages.ts';

const groups: readonly { group: PageGroup; title: string }[] = [
  { group: 'main', title: 'Main pages' },
  { group: 'services', title: 'Services' },
  { group: 'glass-types', title: 'Glass types' },
  { group: 'blog', title: 'Blog' },
  { group: 'legal', title: 'About this site' },
];

/** Every page of the site (app/site-pages.ts), grouped. */
export function SitemapPage({ intro, pages }: { intro: string; pages: readonly SitePage[] }) {
  return (
    <>
      <PageHeader title="Sitemap" intro={<p>{intro}</p>} />
      <section className="section section--plain" aria-label="All pages">
        <div className="container sitemap-groups">
          {groups.map(({ group, title }) => (
            <div key={group}>
              <h2>{title}</h2>
              <ul className="footer-links">
                {pages
                  .filter((page) => page.group === group)
                  .map((page) => (
                    <li key={page.path}>
                      <a href={page.path}>{page.title}</a>
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
