import { useState, type FormEvent } from 'react';
import type { BlogListData } from '../../blog/listing.ts';
import { matchesSearch, pageOf } from '../../blog/search.ts';
import { CallButton } from '../ui/ButtonLink.tsx';
import { PageHeader } from '../ui/PageHeader.tsx';
import { BlogCallToAction } from './BlogCallToAction.tsx';
import { PostCard } from './PostCard.tsx';

/**
 * The blog list (docs/blog.md#blog-list), shared by /blog and /blog/category/{slug}.
 *
 * State (docs/blog.md#list-state): the search text, the category (from the URL: a chip is a
 * link) and the page. The search filters on every keystroke and on submit;
 * the page goes back to 1 whenever either changes (a new category is a new
 * page, so a new list). Without JavaScript the form GETs ?q=… and the server
 * renders the filtered list from the data's `query`
 * (app/pages/on-demand/blog-search.astro).
 */
export function BlogList({ data }: { data: BlogListData }) {
  const [query, setQuery] = useState(data.query);
  const [page, setPage] = useState(1);

  const search = query.trim();
  const matching = data.posts.filter((post) => matchesSearch(post, search));
  const shown = pageOf(matching, page);
  const heading = data.category ? `${data.category} Articles` : 'All Blogs';
  // A category link keeps the search, so switching topic narrows the same search.
  const withSearch = (path: string) => (search ? `${path}?q=${encodeURIComponent(search)}` : path);
  const categories = [
    { name: 'All', path: '/blog', count: data.total, active: data.category === null },
    ...data.categories.map((link) => ({ ...link, active: link.name === data.category })),
  ];

  const changeSearch = (value: string) => {
    setQuery(value);
    setPage(1);
  };
  const submitSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    changeSearch(String(new FormData(event.currentTarget).get('q') ?? ''));
  };

  return (
    <>
      <PageHeader
        eyebrow="Glass advice from local glaziers"
        title="Shared Resources for Your Home Needs"
        intro={
          <p>
            Straight answers from our team on repairs, double glazing, cleaning and safety, so you
            know what can wait, what you can fix yourself and when to call a glazier.
          </p>
        }
        actions={
          <form
            role="search"
            method="get"
            action={data.path}
            className="blog-search"
            onSubmit={submitSearch}
          >
            <label htmlFor="blog-search-input" className="sr-only">
              Search blog articles
            </label>
            <input
              id="blog-search-input"
              className="blog-search__input"
              type="search"
              name="q"
              placeholder="Enter here to search blogs"
              autoComplete="off"
              value={query}
              onChange={(event) => changeSearch(event.target.value)}
            />
            <button type="submit" className="button button--primary blog-search__button">
              Search
            </button>
          </form>
        }
      />

      <section className="section section--plain blog-section" aria-labelledby="blog-list-heading">
        <div className="container blog-layout">
          <div className="blog-layout__main">
            <nav aria-label="Filter articles by category">
              <ul className="chip-list blog-filter">
                {categories.map((category) => (
                  <li key={category.path}>
                    <a
                      href={withSearch(category.path)}
                      className="chip"
                      aria-current={category.active ? 'page' : undefined}
                    >
                      {category.name}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>

            <div className="blog-list-heading">
              <h2 id="blog-list-heading">{heading}</h2>
              <p className="blog-list-heading__status" role="status">
                {search
                  ? `${matching.length} of ${data.posts.length} ${plural(data.posts.length)} match “${search}”`
                  : `${data.posts.length} ${plural(data.posts.length)}`}
              </p>
            </div>

            {shown.items.length > 0 ? (
              <ul className="post-grid">
                {shown.items.map((post) => (
                  <li key={post.slug}>
                    <PostCard post={post} />
                  </li>
                ))}
              </ul>
            ) : (
              <div className="blog-empty">
                <p>No articles found matching your criteria.</p>
                <a
                  href={data.path}
                  onClick={(event) => {
                    event.preventDefault();
                    changeSearch('');
                  }}
                >
                  Clear the search
                </a>
              </div>
            )}

            {shown.pageCount > 1 ? (
              <nav className="blog-pages" aria-label="Pages of articles">
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={shown.page === 1}
                  onClick={() => setPage(shown.page - 1)}
                >
                  Previous page
                </button>
                <span>
                  Page {shown.page} of {shown.pageCount}
                </span>
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={shown.page === shown.pageCount}
                  onClick={() => setPage(shown.page + 1)}
                >
                  Next page
                </button>
              </nav>
            ) : null}
          </div>

          <aside className="blog-sidebar" aria-labelledby="blog-categories-heading">
            <div className="blog-sidebar__box">
              <h2 id="blog-categories-heading" className="blog-sidebar__title">
                Blog Categories
              </h2>
              <ul className="category-list">
                {categories.map((category) => (
                  <li key={category.path}>
                    <a
                      href={withSearch(category.path)}
                      aria-current={category.active ? 'page' : undefined}
                    >
                      <span>{category.name === 'All' ? 'All articles' : category.name}</span>{' '}
                      <span className="category-list__count">
                        {category.count} <span className="sr-only">{plural(category.count)}</span>
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
            <div className="blog-sidebar__box blog-sidebar__call">
              <p className="blog-sidebar__title">Rather talk it through?</p>
              <p>
                Call our glaziers for honest advice on your glass. For broken glass that cannot
                wait, we take emergency calls {data.contact.emergencyHours}.
              </p>
              <CallButton variant="primary" phone={data.contact.phone} />
            </div>
          </aside>
        </div>
      </section>

      <BlogCallToAction />
    </>
  );
}

function plural(count: number): string {
  return count === 1 ? 'article' : 'articles';
}
