import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Root, RootContent } from 'hast';
import rehypeSlug from 'rehype-slug';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself (docs/README.md#citing-these-pages): every
 * page and heading the code, the tests and the docs cite, such as
 * `docs/forms.md#messages`, exists, and nothing cites a document or an issue
 * tracker a clone does not contain.
 */

const root = path.resolve(import.meta.dirname, '..');

/** Every file git would commit: tracked, or new and not ignored. */
function repositoryFiles(): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return out
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(root, file)))
    .filter((file) => /\.(ts|tsx|astro|js|mjs|cjs|css|md|json|ya?ml|sh|html|txt)$/.test(file))
    .filter((file) => file !== 'package-lock.json');
}

/** The heading ids GitHub gives a Markdown page (rehype-slug uses the same slugger). */
const anchorsOf = (() => {
  const cache = new Map<string, Set<string>>();
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSlug);
  return (file: string): Set<string> => {
    let ids = cache.get(file);
    if (!ids) {
      const text = readFileSync(file, 'utf8');
      const tree = processor.runSync(processor.parse(text)) as Root;
      const found = new Set<string>();
      const walk = (nodes: RootContent[]) => {
        for (const node of nodes) {
          if (node.type !== 'element') continue;
          if (typeof node.properties.id === 'string') found.add(node.properties.id);
          walk(node.children);
        }
      };
      walk(tree.children);
      // An anchor written as HTML in the Markdown (`<a id="email-pattern"></a>`).
      for (const match of text.matchAll(/<a\s+id="([\w-]+)"/g)) found.add(match[1] ?? '');
      ids = found;
      cache.set(file, ids);
    }
    return ids;
  };
})();

interface Citation {
  from: string;
  page: string;
  anchor: string | undefined;
}

/** `docs/<page>.md#<heading>` anywhere, and relative Markdown links inside docs/. */
function citations(file: string, text: string): Citation[] {
  const found: Citation[] = [];
  for (const match of text.matchAll(/\bdocs\/([\w./-]*?\.md)(?:#([\w-]+))?/g)) {
    found.push({ from: file, page: path.join('docs', match[1] ?? ''), anchor: match[2] });
  }
  if (file.startsWith('docs/') && file.endsWith('.md')) {
    for (const match of text.matchAll(/\]\(([\w./-]+\.md)(?:#([\w-]+))?\)/g)) {
      const page = path.normalize(path.join(path.dirname(file), match[1] ?? ''));
      found.push({ from: file, page, anchor: match[2] });
    }
  }
  return found;
}

const files = repositoryFiles().map((file) => ({
  file,
  text: readFileSync(path.join(root, file), 'utf8'),
}));

describe('docs citations', () => {
  it('finds the files to check', () => {
    expect(files.some((f) => f.file === 'docs/forms.md')).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });

  it('every cited docs page and heading exists', () => {
    const broken: string[] = [];
    for (const { file, text } of files) {
      for (const { from, page, anchor } of citations(file, text)) {
        const full = path.join(root, page);
        if (!existsSync(full)) broken.push(`${from}: ${page} does not exist`);
        else if (anchor !== undefined && !anchorsOf(full).has(anchor)) {
          broken.push(`${from}: ${page} has no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('nothing points outside the clone or at a tracker', () => {
    // The specification and the operator's contract the code was first
    // written against (now docs/), the folder that held them beside the
    // repository, section signs, and issue numbers.
    const outside = [
      /\bSPEC\b/,
      /\bCONTRACT\b/,
      /\.\.\/shared\b/,
      /(?<!RFC \d+ )§\s*\d/,
      /\bissues?\s+#?\d+/i,
    ];
    const found: string[] = [];
    for (const { file, text } of files) {
      text.split('\n').forEach((line, index) => {
        if (outside.some((pattern) => pattern.test(line))) {
          found.push(`${file}:${index + 1}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
