import { defineCollection } from 'astro:content';
import { blogLoader, compiledArticleSchema } from './blog/collection.ts';
import { publicConfig } from './public-config.ts';

/**
 * Every content collection of the site, each with its zod schema. The blog:
 * the Markdown articles of app/content/blog, compiled at build time
 * (app/blog/collection.ts); a bad frontmatter field fails the build
 * naming the file and the field.
 */
export const collections = {
  blog: defineCollection({
    loader: blogLoader({ siteUrl: publicConfig.siteUrl }),
    schema: compiledArticleSchema,
  }),
};
