import path from 'node:path';
import { build } from 'esbuild';
import sharp from 'sharp';
import type { Plugin } from 'vite';

/**
 * The owner's pages as an installable app (docs/operations.md, "Owner's
 * pages"): their service worker, bundled by esbuild from
 * app/browser/owner-sw.ts into one classic script, and their icons, drawn
 * once as app/owner/app-icon.svg and rendered to PNG by sharp. Both reach
 * the server's build as the module `virtual:owner-app` (this Vite plugin,
 * in astro.config.ts, for `astro build` and `astro dev` alike), which the
 * endpoints app/pages/admin/sw.js.ts and app/pages/admin/icons/[icon].ts
 * serve. Nothing of it is a file of the public site: no public page can
 * load it.
 */

export const OWNER_APP_MODULE = 'virtual:owner-app';
const RESOLVED = `\0${OWNER_APP_MODULE}`;

const root = path.resolve(import.meta.dirname, '..');
export const WORKER_ENTRY = path.join(root, 'app/browser/owner-sw.ts');
export const ICON_SVG = path.join(root, 'app/owner/app-icon.svg');

/**
 * The icons the manifest names, and the touch icon iOS puts on the home
 * screen. A maskable icon (Android crops it to its own shape) and the
 * touch icon (iOS fills transparency with black) are the mark on the
 * background colour to the edges, the mark within the middle 80 %.
 */
export const APP_ICONS = {
  'icon-192.png': { size: 192, fullBleed: false },
  'icon-512.png': { size: 512, fullBleed: false },
  'maskable-512.png': { size: 512, fullBleed: true },
  'apple-touch-icon.png': { size: 180, fullBleed: true },
} as const;
export type AppIconName = keyof typeof APP_ICONS;

/** The icon's own background, to the edges of a full-bleed one. */
const ICON_BACKGROUND = '#0f4c63';

/** The worker as one minified classic script, and the files it was made from. */
export async function bundleServiceWorker(): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [WORKER_ENTRY],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error(`esbuild made nothing of ${WORKER_ENTRY}`);
  return {
    code,
    inputs: Object.keys(result.metafile.inputs).map((file) => path.resolve(root, file)),
  };
}

/** Every icon, as PNG. */
export async function renderAppIcons(): Promise<Record<AppIconName, Buffer>> {
  const icons = {} as Record<AppIconName, Buffer>;
  for (const [name, { size, fullBleed }] of Object.entries(APP_ICONS) as [
    AppIconName,
    (typeof APP_ICONS)[AppIconName],
  ][]) {
    // Drawn at 512: rendered at the size it is shown, never scaled up.
    const mark = Math.round(fullBleed ? size * 0.8 : size);
    const drawn = await sharp(ICON_SVG, { density: (72 * mark) / 512 })
      .resize(mark, mark)
      .png()
      .toBuffer();
    icons[name] = fullBleed
      ? await sharp({
          create: { width: size, height: size, channels: 3, background: ICON_BACKGROUND },
        })
          .composite([{ input: drawn, gravity: 'centre' }])
          .png({ compressionLevel: 9 })
          .toBuffer()
      : await sharp(drawn).png({ compressionLevel: 9 }).toBuffer();
  }
  return icons;
}

/** The Vite plugin that makes `virtual:owner-app`: `serviceWorker` (its code) and `icons` (base64 PNG by name). */
export function ownerAppPlugin(): Plugin {
  return {
    name: 'owner-app',
    resolveId(id) {
      return id === OWNER_APP_MODULE ? RESOLVED : undefined;
    },
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const worker = await bundleServiceWorker();
      // `astro dev` makes it again when one of them changes.
      for (const file of [...worker.inputs, ICON_SVG]) this.addWatchFile(file);
      const icons = Object.fromEntries(
        Object.entries(await renderAppIcons()).map(([name, png]) => [name, png.toString('base64')]),
      );
      return [
        `export const serviceWorker = ${JSON.stringify(worker.code)};`,
        `export const icons = ${JSON.stringify(icons)};`,
      ].join('\n');
    },
  };
}
