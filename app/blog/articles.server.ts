import { getCollection } from 'astro:content';
import { business } from '../content/business.ts';
import { categoryLinks, categoryPath } from './category.ts';
import type { CompiledArticle } from './compile.ts';
import { compareListOrder } from './frontmatter.ts';
import {
  adjacentArticles,
  formatPostDate,
  MAX_RELATED_CARD_CATEGORIES,
  postCard,
  postPath,
  relatedArticles,
  type ArticlePageData,
  type BlogListData,
  type PostLink,
} from './listing.ts';
import { filterPosts } from './search.ts';

/**
 * Every article of the blog collection (app/content.config.ts: compiled at
 * build time by ./collection.ts), newest first. Only page files import this
 * module: `.server` keeps it, and the article bodies, out of the browser bundle.
 */
const entries: readonly { data: CompiledArticle }[] = await getCollection('blog');
export const articles: readonly CompiledArticle[] = entries
  .map((entry) => entry.data)
  .sort((a, b) => compareListOrder(a.frontmatter, b.frontmatter));

/** In the order they first appear in the list (the same rule as blogCategories in site-pages.ts). */
export const categories: readonly string[] = [
  ...new Set(articles.flatMap((article) => article.frontmatter.categories)),
];

export function blogListData(category: string | null, query: string): BlogListData {
  const inCategory = filterPosts(
    articles.map((article) => ({ ...article.frontmatter, article })),
    { query: '', category },
  );
  return {
    category,
    path: category === null ? '/blog' : categoryPath(category),
    total: articles.length,
    query,
    categories: categoryLinks(categories).map((link) => ({
      ...link,
      count: articles.filter((article) => article.frontmatter.categories.includes(link.name))
        .length,
    })),
    posts: inCategory.map(({ article }) => postCard(article)),
    contact: { phone: business.phone, emergencyHours: business.emergency.hours },
  };
}

const linkTo = (article: CompiledArticle | null): PostLink | null =>
  article ? { path: postPath(article.frontmatter.slug), title: article.frontmatter.title } : null;

export function articlePageData(slug: string): ArticlePageData | null {
  const compiled = articles.find((article) => article.frontmatter.slug === slug);
  if (!compiled) return null;
  const { frontmatter, html, helpBoxOffset } = compiled;
  const { previous, next } = adjacentArticles(articles, slug);
  return {
    article: {
      slug,
      path: postPath(slug),
      title: frontmatter.title,
      excerpt: frontmatter.excerpt,
      metaTitle: frontmatter.metaTitle,
      metaDescription: frontmatter.metaDescription,
      author: frontmatter.author,
      date: formatPostDate(frontmatter.publishedAt),
      readTimeMinutes: compiled.readTimeMinutes,
      wordCount: compiled.wordCount,
      categoryLinks: categoryLinks(frontmatter.categories),
      cover: compiled.cover,
      bodyBeforeHelpBox: html.slice(0, helpBoxOffset),
      bodyAfterHelpBox: html.slice(helpBoxOffset),
    },
    related: relatedArticles(articles, slug).map((article) =>
      postCard(article, MAX_RELATED_CARD_CATEGORIES),
    ),
    previous: linkTo(previous),
    next: linkTo(next),
  };
}
