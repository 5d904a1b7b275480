import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { contentKey, defaultSiteContent } from '../../app/content/site-content.ts';
import { createRelease, publishRelease } from '../build-releases.ts';

/**
 * The smallest build the web server serves, in `dir`/build, for tests that
 * run `npm start`'s processes without building the site; nothing for the
 * builder to do with it. Returns the BUILD_DIR to give them.
 */
export function stubBuild(dir: string): string {
  const buildDir = path.join(dir, 'build');
  const release = createRelease(buildDir);
  mkdirSync(path.join(release, 'client'));
  writeFileSync(path.join(release, 'client/index.html'), '<!doctype html><title>Home</title>');
  mkdirSync(path.join(release, 'server'));
  writeFileSync(
    path.join(release, 'server/entry.mjs'),
    "export const handler = (req, res) => { res.status(404).type('text/plain').send('Not found'); };\n",
  );
  // The defaults' content, as the store without a version asks for: nothing to build.
  writeFileSync(
    path.join(release, 'build-stamp.json'),
    JSON.stringify({ content: { version: 0, key: contentKey(0, defaultSiteContent, new Date()) } }),
  );
  publishRelease(buildDir, release);
  return buildDir;
}
