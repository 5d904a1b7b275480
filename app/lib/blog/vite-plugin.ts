import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { compileArticle } from './compile.ts';
import { ArticleError } from './frontmatter.ts';

/** Only the articles: a `?raw` import (app/lib/blog/summaries.ts) has a query and is left to Vite. */
const ARTICLE_ID = /[\\/]app[\\/]content[\\/]blog[\\/][^\\/?]+\.md$/;

/**
 * Turns `import article from '…/blog/x.md'` into the compiled article
 * (app/lib/blog/compile.ts) at build time, so a route's loader gets HTML and
 * figures and no Markdown parser is ever bundled. A bad article fails the
 * build with the file and the field named.
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
    transform: {
      // Only article ids reach the handler (a hook filter: no call for every other module).
      filter: { id: ARTICLE_ID },
      handler(source, id) {
        if (!ARTICLE_ID.test(id)) return null;
        const file = path.relative(root, id).split(path.sep).join('/');
        try {
          const article = compileArticle(file, source, {
            siteUrl: options.siteUrl,
            readPublicFile: (publicPath) => {
              const full = path.join(publicDir, publicPath);
              // A cover added or redrawn later rebuilds the article in dev.
              this.addWatchFile(full);
              try {
                return readFileSync(full, 'utf8');
              } catch {
                return null;
              }
            },
          });
          return { code: `export default ${JSON.stringify(article)};`, map: null };
        } catch (error) {
          if (error instanceof ArticleError) this.error(error.message);
          throw error;
        }
      },
    },
  };
}
