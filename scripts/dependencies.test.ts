import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * What a server needs after `npm ci --omit=dev`: `npm start` (build when
 * stale, then serve and build), `npm run build`, `npm run leads` and
 * `npm run check:launch`. Every package the code they run imports is a
 * dependency; tests, benchmarks and linters are devDependencies. Every
 * version is exact (README, "Dependencies").
 */

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

/** The files the production commands start from, and every page Astro builds. */
function entryPoints(): string[] {
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(astro|ts|tsx)$/.test(entry.name)) pages.push(full);
    }
  };
  walk(path.join(root, 'app/pages'));
  return [
    'server/start.ts',
    'server/builder.ts',
    'scripts/start.ts',
    'server/replicator.ts',
    'scripts/restore.ts',
    'server/cli/leads-cli.ts',
    'scripts/ensure-build.ts',
    'scripts/build.ts',
    'scripts/check-launch.ts',
    'astro.config.ts',
    'app/content.config.ts',
    'app/directives/after-load.ts',
    ...pages.map((page) => path.relative(root, page)),
  ].map((file) => path.join(root, file));
}

/**
 * The module specifiers a file imports at run time (an .astro file: its
 * frontmatter and scripts); `import type` is erased before anything runs.
 */
function importsOf(file: string): string[] {
  let text = readFileSync(file, 'utf8');
  if (file.endsWith('.astro')) {
    const end = text.indexOf('\n---', 3);
    const frontmatter = text.startsWith('---') && end > 0 ? text.slice(3, end) : '';
    const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    text = [frontmatter, ...scripts].join('\n');
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? node.importClause?.isTypeOnly === true
        : node.isTypeOnly;
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) {
      try {
        readFileSync(candidate);
        return candidate;
      } catch {
        // a directory
      }
    }
  }
  return undefined;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every package the production code reaches, with one file that imports it. */
function productionPackages(): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = entryPoints();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(astro|ts|tsx|js|mjs)$/.test(file)) continue;
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) {
        const resolved = resolveRelative(file, specifier);
        if (resolved) queue.push(resolved);
        continue;
      }
      if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      // Astro's virtual modules (astro:content, astro:assets, …) and the
      // build's own (virtual:owner-app, made by scripts/owner-app.ts, which
      // astro.config.ts imports and the walk reaches).
      if (specifier.startsWith('astro:') || specifier.startsWith('virtual:')) continue;
      const name = packageName(specifier);
      if (!packages.has(name)) packages.set(name, path.relative(root, file));
    }
  }
  return packages;
}

describe('dependencies', () => {
  it('declares every package the production commands import as a dependency', () => {
    const packages = productionPackages();
    // The walk reaches the server, the build and the pages.
    expect(packages.has('express')).toBe(true);
    expect(packages.has('astro')).toBe(true);
    expect(packages.has('react')).toBe(true);
    const missing = [...packages]
      .filter(([name]) => !(name in pkg.dependencies))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(missing).toEqual([]);
  });

  it('runs the npm scripts of a server on the pinned Node, a dependency', () => {
    expect(pkg.dependencies.node).toBeDefined();
    expect(pkg.devDependencies.node).toBeUndefined();
  });

  it('pins every package to an exact version', () => {
    const loose = Object.entries({
      ...pkg.dependencies,
      ...pkg.devDependencies,
      ...pkg.optionalDependencies,
    })
      .filter(([, version]) => !/^\d+\.\d+\.\d+$/.test(version))
      .map(([name, version]) => `${name}@${version}`);
    expect(loose).toEqual([]);
    expect(readFileSync(path.join(root, '.npmrc'), 'utf8')).toMatch(/^save-exact=true$/m);
  });

  it('keeps no package that nothing uses in dependencies', () => {
    const used = productionPackages();
    // Used by name rather than imported: the Node binary npm scripts run on,
    // and React's renderer, a peer dependency of @astrojs/react.
    const byName = new Set(['node', 'react-dom']);
    const unused = Object.keys(pkg.dependencies).filter(
      (name) => !used.has(name) && !byName.has(name),
    );
    expect(unused).toEqual([]);
  });
});
