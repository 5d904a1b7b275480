import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Loader } from 'astro/loaders';
import { z } from 'zod';
import { compileArticle, type CompiledArticle } from './compile.ts';
import { frontmatterSchema } from './frontmatter.ts';

/**
 * The blog collection's loader (app/content.config.ts): every article in
 * app/content/blog compiled at build time (./compile.ts: the frontmatter
 * checked with its zod schema, the body as safe HTML, reading time, where
 * the help box goes), so a page gets HTML and figures and no Markdown parser
 * is ever bundled. A bad article fails `astro build` with the file and the
 * field named. Entries are stored under their slug.
 */
export function compileArticles(options: {
  /** The folder of the articles. */
  dir: string;
  /** The folder of the public files (covers). */
  publicDir: string;
  /** The project root, for the file names in messages. */
  root: string;
  siteUrl: string;
  /** Called with every file read, so the dev server reloads on a change. */
  watch?: (file: string) => void;
}): CompiledArticle[] {
  const { dir, publicDir, root, siteUrl, watch } = options;
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const full = path.join(dir, name);
      watch?.(full);
      const file = path.relative(root, full).split(path.sep).join('/');
      return compileArticle(file, readFileSync(full, 'utf8'), {
        siteUrl,
        readPublicFile: (publicPath) => {
          const cover = path.join(publicDir, publicPath);
          watch?.(cover);
          try {
            return readFileSync(cover, 'utf8');
          } catch {
            return null;
          }
        },
      });
    });
}

/** What the collection holds for an article: the compiled article, checked again on the way in. */
export const compiledArticleSchema = z.object({
  frontmatter: frontmatterSchema,
  cover: z.object({ src: z.string(), alt: z.string(), width: z.number(), height: z.number() }),
  html: z.string(),
  paragraphs: z.number().int(),
  helpBoxAfterParagraphs: z.number().int(),
  helpBoxOffset: z.number().int(),
  wordCount: z.number().int(),
  readTimeMinutes: z.number().int(),
});

export function blogLoader(options: { siteUrl: string }): Loader {
  return {
    name: 'blog-articles',
    async load({ store, parseData, config, watcher, logger }) {
      const root = path.resolve(config.root.pathname);
      const dir = path.join(root, 'app/content/blog');
      const articles = compileArticles({
        dir,
        publicDir: path.resolve(config.publicDir.pathname),
        root,
        siteUrl: options.siteUrl,
        watch: (file) => watcher?.add(file),
      });
      store.clear();
      for (const article of articles) {
        const id = article.frontmatter.slug;
        store.set({ id, data: await parseData({ id, data: { ...article } }) });
      }
      logger.info(`${articles.length} articles compiled`);
    },
  };
}
