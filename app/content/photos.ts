import type { PhotoManifest, ResponsivePhoto } from '../lib/photos.ts';
import manifest from './photos.manifest.json';

/**
 * The owner's raster photos (public/photos/README.md). The manifest is
 * written by the build (scripts/responsive-images.ts); import this module in
 * loaders only, like every content module.
 */
export const photos: PhotoManifest = manifest;

/** A photo by name ('kitchen-splashback' for 'Kitchen Splashback.jpg'), if the owner added it. */
export function getPhoto(name: string): ResponsivePhoto | undefined {
  return photos[name];
}
