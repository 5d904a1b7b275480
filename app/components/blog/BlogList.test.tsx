// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BlogListData, PostCardData } from '../../blog/listing.ts';
import { BlogList } from './BlogList.tsx';

afterEach(cleanup);

function card(slug: string, title: string, excerpt: string, categories: string[]): PostCardData {
  return {
    slug,
    path: `/blog/${slug}`,
    title,
    excerpt,
    categoryLinks: categories.map((name) => ({
      name,
      path: `/blog/category/${name.toLowerCase().replace(/ /g, '-')}`,
    })),
    date: { iso: '2024-01-15', short: '15 Jan 2024', long: '15 January 2024' },
    cover: { src: `/images/blog/${slug}.svg`, alt: `Cover of ${title}`, width: 1200, height: 630 },
  };
}

const data: BlogListData = {
  category: null,
  path: '/blog',
  total: 3,
  query: '',
  categories: [
    { name: 'Windows', path: '/blog/category/windows', count: 2 },
    { name: 'Kitchen Glass', path: '/blog/category/kitchen-glass', count: 1 },
  ],
  posts: [
    card('fogged', 'Fogged Double Glazing', 'Why units mist up.', ['Windows']),
    card('cloudy', 'Cloudy Windows', 'Salt, soap and hard water.', ['Windows']),
    card('stove', 'Scratched Stove Tops', 'Marks on a glass cooktop.', ['Kitchen Glass']),
  ],
  // Not the shipped identity: the island states what it is given.
  contact: {
    phone: { display: '021 555 0199', e164: '+64215550199' },
    emergencyHours: 'all night',
  },
};

function renderList(listData: BlogListData = data) {
  render(<BlogList data={listData} />);
}

const titles = () =>
  screen.queryAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);

describe('BlogList', () => {
  it('shows the heading, the search form, the chips, the sidebar and every card', () => {
    renderList();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Shared Resources for Your Home Needs',
    );
    const search = screen.getByRole('search');
    expect(search.getAttribute('method')).toBe('get');
    expect(search.getAttribute('action')).toBe('/blog');
    const input = within(search).getByRole('searchbox', { name: 'Search blog articles' });
    expect(input.getAttribute('placeholder')).toBe('Enter here to search blogs');
    expect(input.getAttribute('name')).toBe('q');
    within(search).getByRole('button', { name: 'Search' });

    const chips = within(screen.getByRole('navigation', { name: 'Filter articles by category' }))
      .getAllByRole('link')
      .map((link) => [
        link.textContent,
        link.getAttribute('href'),
        link.getAttribute('aria-current'),
      ]);
    expect(chips).toEqual([
      ['All', '/blog', 'page'],
      ['Windows', '/blog/category/windows', null],
      ['Kitchen Glass', '/blog/category/kitchen-glass', null],
    ]);
    screen.getByRole('heading', { level: 2, name: 'Blog Categories' });
    screen.getByRole('heading', { level: 2, name: 'All Blogs' });
    expect(titles()).toEqual(['Fogged Double Glazing', 'Cloudy Windows', 'Scratched Stove Tops']);
    expect(
      screen.getByRole('link', { name: 'Learn more about Cloudy Windows' }).getAttribute('href'),
    ).toBe('/blog/cloudy');
    screen.getByRole('heading', { level: 2, name: 'Service You Can Trust!' });
    expect(screen.getByRole('link', { name: 'Request an Estimate' }).getAttribute('href')).toBe(
      '/quote',
    );
  });

  it('states the phone and emergency hours it is given, never those compiled into it', () => {
    renderList();
    const call = screen.getByRole('link', { name: 'Call 021 555 0199' });
    expect(call.getAttribute('href')).toBe('tel:+64215550199');
    expect(screen.getByText(/we take emergency calls all night\./)).toBeTruthy();
  });

  it('filters on every keystroke, shows the empty message, and clears', () => {
    renderList();
    const input = screen.getByRole('searchbox');
    fireEvent.change(input, { target: { value: 'w' } });
    expect(titles()).toEqual(['Fogged Double Glazing', 'Cloudy Windows']);
    fireEvent.change(input, { target: { value: 'COOKTOP' } });
    expect(titles()).toEqual(['Scratched Stove Tops']);
    expect(screen.getByRole('status').textContent).toBe('1 of 3 articles match “COOKTOP”');
    fireEvent.change(input, { target: { value: 'conservatory roof' } });
    expect(titles()).toEqual([]);
    screen.getByText('No articles found matching your criteria.');
    fireEvent.click(screen.getByRole('link', { name: 'Clear the search' }));
    expect(titles()).toHaveLength(3);
  });

  it('filters on submit without leaving the page, and category links keep the search', () => {
    renderList();
    const input = screen.getByRole('searchbox');
    fireEvent.change(input, { target: { value: 'salt' } });
    fireEvent.submit(screen.getByRole('search'));
    expect(titles()).toEqual(['Cloudy Windows']);
    const nav = screen.getByRole('navigation', { name: 'Filter articles by category' });
    expect(within(nav).getByRole('link', { name: 'Windows' }).getAttribute('href')).toBe(
      '/blog/category/windows?q=salt',
    );
  });

  it('starts from the search of a no-JavaScript submit and names the active category', () => {
    renderList({
      ...data,
      category: 'Windows',
      path: '/blog/category/windows',
      query: 'fog',
      posts: data.posts.slice(0, 2),
    });
    screen.getByRole('heading', { level: 2, name: 'Windows Articles' });
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('fog');
    expect(titles()).toEqual(['Fogged Double Glazing']);
    const nav = screen.getByRole('navigation', { name: 'Filter articles by category' });
    expect(within(nav).getByRole('link', { name: 'Windows' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'All' }).getAttribute('aria-current')).toBeNull();
  });

  it('goes back to page 1 whenever the search changes (100 a page)', () => {
    const many = Array.from({ length: 150 }, (_, index) =>
      card(`post-${index}`, `Article ${index}`, index % 2 ? 'Odd one.' : 'Even one.', ['Windows']),
    );
    renderList({ ...data, total: many.length, posts: many });
    expect(titles()).toHaveLength(100);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(titles()).toHaveLength(50);
    expect(titles()[0]).toBe('Article 100');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'even' } });
    expect(titles()).toHaveLength(75);
    expect(titles()[0]).toBe('Article 0');
    expect(screen.queryByRole('navigation', { name: 'Pages of articles' })).toBeNull();
  });
});
