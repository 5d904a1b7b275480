import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { PhotoManifest, ResponsivePhoto } from '../app/lib/photos.ts';

/**
 * Build step for raster photos (issue 3, item 7). The owner drops JPEG or
 * PNG photos into public/photos/ (see public/photos/README.md); the build
 * turns each into AVIF and WebP variants 480, 800 and 1200 px wide and
 * describes them in a manifest that loaders read, so a page can serve the
 * right size with its width and height set. SVG illustrations are not
 * touched.
 *
 * Two halves, because the manifest must exist before Astro prerenders the
 * pages and the variants can only be written after it has emptied the
 * build directory:
 * - `planResponsiveImages` reads only the photos' headers and writes the
 *   manifest (app/content/photos.manifest.json, rewritten only when it
 *   changes);
 * - `writeResponsiveImages` encodes the variants into build/client/photos/.
 */

export const RESPONSIVE_WIDTHS = [480, 800, 1200] as const;

const SOURCE_PATTERN = /\.(?:jpe?g|png)$/i;

/** One source photo and the files the build makes from it. */
export interface PlannedPhoto {
  name: string;
  source: string;
  widths: readonly number[];
  height: (width: number) => number;
}

export interface ResponsiveImagePlan {
  photos: readonly PlannedPhoto[];
  manifest: PhotoManifest;
}

/** 'Kitchen Splashback 02.JPG' → 'kitchen-splashback-02' */
export function photoName(file: string): string {
  return path
    .basename(file, path.extname(file))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The widths to make: each standard width narrower than the photo, plus the
 * photo's own width when it is narrower than the largest (never upscaled).
 */
export function variantWidths(
  sourceWidth: number,
  widths: readonly number[] = RESPONSIVE_WIDTHS,
): number[] {
  const largest = Math.min(sourceWidth, Math.max(...widths));
  return [...new Set([...widths.filter((width) => width < largest), largest])].sort(
    (a, b) => a - b,
  );
}

function variantUrl(publicPath: string, name: string, width: number, format: 'avif' | 'webp') {
  return `${publicPath}/${name}-${width}.${format}`;
}

/** Reads the photos' sizes (headers only) and decides every variant. */
export async function planResponsiveImages({
  sourceDir,
  publicPath = '/photos',
  widths = RESPONSIVE_WIDTHS,
}: {
  sourceDir: string;
  publicPath?: string;
  widths?: readonly number[];
}): Promise<ResponsiveImagePlan> {
  const files = existsSync(sourceDir)
    ? readdirSync(sourceDir)
        .filter((file) => SOURCE_PATTERN.test(file))
        .sort()
    : [];
  const photos: PlannedPhoto[] = [];
  const manifest: PhotoManifest = {};
  for (const file of files) {
    const source = path.join(sourceDir, file);
    const name = photoName(file);
    if (!name) continue;
    if (manifest[name]) {
      throw new Error(`Two photos in ${sourceDir} are both named '${name}': rename one of them.`);
    }
    const metadata = await sharp(source).metadata();
    // Camera photos are often stored sideways with an EXIF orientation flag.
    const sideways = (metadata.orientation ?? 1) >= 5;
    const sourceWidth = (sideways ? metadata.height : metadata.width) ?? 0;
    const sourceHeight = (sideways ? metadata.width : metadata.height) ?? 0;
    if (!sourceWidth || !sourceHeight) throw new Error(`Cannot read the size of ${source}`);
    const sizes = variantWidths(sourceWidth, widths);
    const height = (width: number) => Math.round((sourceHeight * width) / sourceWidth);
    const largest = sizes.at(-1) ?? sourceWidth;
    const srcSet = (format: 'avif' | 'webp') =>
      sizes.map((width) => `${variantUrl(publicPath, name, width, format)} ${width}w`).join(', ');
    const entry: ResponsivePhoto = {
      width: largest,
      height: height(largest),
      src: variantUrl(publicPath, name, largest, 'webp'),
      avifSrcSet: srcSet('avif'),
      webpSrcSet: srcSet('webp'),
    };
    manifest[name] = entry;
    photos.push({ name, source, widths: sizes, height });
  }
  return { photos, manifest };
}

/** Writes the manifest only when it changed, so an unchanged tree stays unchanged. */
export function writeManifest(manifest: PhotoManifest, manifestFile: string): boolean {
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  if (existsSync(manifestFile) && readFileSync(manifestFile, 'utf8') === text) return false;
  mkdirSync(path.dirname(manifestFile), { recursive: true });
  writeFileSync(manifestFile, text);
  return true;
}

/**
 * Encodes every planned variant into `outputDir`. The originals and the
 * README that Vite copied there from public/photos/ are removed: visitors get
 * the variants, never a multi-megabyte camera file.
 */
export async function writeResponsiveImages(
  plan: ResponsiveImagePlan,
  outputDir: string,
): Promise<number> {
  mkdirSync(outputDir, { recursive: true });
  let written = 0;
  for (const photo of plan.photos) {
    for (const width of photo.widths) {
      // rotate() with no angle applies the EXIF orientation.
      const resized = sharp(photo.source)
        .rotate()
        .resize({ width, height: photo.height(width) });
      await resized
        .clone()
        .avif({ quality: 55, effort: 4 })
        .toFile(path.join(outputDir, `${photo.name}-${width}.avif`));
      await resized
        .clone()
        .webp({ quality: 78 })
        .toFile(path.join(outputDir, `${photo.name}-${width}.webp`));
      written += 2;
    }
    rmSync(path.join(outputDir, path.basename(photo.source)), { force: true });
  }
  rmSync(path.join(outputDir, 'README.md'), { force: true });
  return written;
}
