import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'express';

/**
 * Serves the build's files, choosing the brotli or gzip copy made at build
 * time (scripts/build.ts) when the browser accepts it.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export class StaticFiles {
  readonly root: string;
  private readonly files: ReadonlySet<string>;

  private constructor(root: string, files: ReadonlySet<string>) {
    this.root = root;
    this.files = files;
  }

  static async scan(root: string): Promise<StaticFiles> {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    // Files only: a folder (/assets) is not something to send, and would fail as one.
    const files = entries
      .filter((entry) => entry.isFile())
      .map((entry) =>
        path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
      );
    return new StaticFiles(root, new Set(files));
  }

  /** The build-relative name of the file behind a URL path, if it exists. */
  resolve(urlPath: string): string | undefined {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return undefined;
    }
    const relative = decoded.replace(/^\/+/, '');
    if (relative === '' || relative.split('/').includes('..')) return undefined;
    if (/\.(br|gz)$/.test(relative)) return undefined;
    return this.files.has(relative) ? relative : undefined;
  }

  has(relative: string): boolean {
    return this.files.has(relative);
  }

  send(req: Request, res: Response, relative: string, cacheControl: string): Promise<void> {
    const accepted = req.acceptsEncodings('br', 'gzip', 'identity');
    let served = relative;
    if (accepted === 'br' && this.files.has(`${relative}.br`)) {
      served = `${relative}.br`;
      res.setHeader('Content-Encoding', 'br');
    } else if ((accepted === 'br' || accepted === 'gzip') && this.files.has(`${relative}.gz`)) {
      served = `${relative}.gz`;
      res.setHeader('Content-Encoding', 'gzip');
    }
    res.vary('Accept-Encoding');
    res.setHeader('Content-Type', TYPES[path.extname(relative)] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', cacheControl);
    return new Promise((resolve, reject) => {
      res.sendFile(
        served,
        { root: this.root, dotfiles: 'deny', etag: true, lastModified: true, cacheControl: false },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }
}
