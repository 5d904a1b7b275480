import { PageHeader } from '../ui/PageHeader.tsx';
import { sitemapIntro } from '../../content/legal.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';
import { sitePages, type PageGroup } from '../../site-pages.ts';

export function sitemapData() {
  return {
    intro: sitemapIntro,
    pages: sitePages.map(({ path, title, group }) => ({ path, title, group })),
  };
}

export const sitemapMeta = (): PageMeta => ({
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

export function SitemapPage({ loaderData }: { loaderData: ReturnType<typeof sitemapData> }) {
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
