import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { compileArticle } from './compile.ts';
import { ArticleError } from './frontmatter.ts';

/** The module that holds every compiled article (app/lib/blog/articles.server.ts imports it). */
export const BLOG_ARTICLES_MODULE = 'virtual:blog-articles';
const RESOLVED_ID = `\0${BLOG_ARTICLES_MODULE}`;

/**
 * `import articles from 'virtual:blog-articles'`: every article in
 * app/content/blog, compiled at build time (app/lib/blog/compile.ts), so a
 * page gets HTML and figures and no Markdown parser is ever bundled. A bad
 * article fails the build with the file and the field named. (A virtual
 * module rather than a transform of each `.md` import: Astro treats those
 * as Markdown pages of its own.)
 */
export function blogArticles(options: { siteUrl: string }): Plugin {
  let root = process.cwd();
  let publicDir = path.join(root, 'public');
  return {
    name: 'blog-articles',
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
      publicDir = config.publicDir || publicDir;
    },
    resolveId(id) {
      return id === BLOG_ARTICLES_MODULE ? RESOLVED_ID : null;
    },
    load(id) {
      if (id !== RESOLVED_ID) return null;
      const blogDir = path.join(root, 'app/content/blog');
      const articles = [];
      for (const name of readdirSync(blogDir)
        .filter((entry) => entry.endsWith('.md'))
        .sort()) {
        const full = path.join(blogDir, name);
        // An article edited in dev rebuilds the module.
        this.addWatchFile(full);
        const file = path.relative(root, full).split(path.sep).join('/');
        try {
          articles.push(
            compileArticle(file, readFileSync(full, 'utf8'), {
              siteUrl: options.siteUrl,
              readPublicFile: (publicPath) => {
                const cover = path.join(publicDir, publicPath);
                // A cover added or redrawn later rebuilds the article in dev.
                this.addWatchFile(cover);
                try {
                  return readFileSync(cover, 'utf8');
                } catch {
                  return null;
                }
              },
            }),
          );
        } catch (error) {
          if (error instanceof ArticleError) this.error(error.message);
          throw error;
        }
      }
      return { code: `export default ${JSON.stringify(articles)};`, map: null };
    },
  };
}
