/**
 * Raster photos made responsive at build time (scripts/responsive-images.ts):
 * the manifest entry of one photo, as a loader hands it to ResponsivePicture.
 */
export interface ResponsivePhoto {
  /** Width and height of the largest variant: set on the image so nothing shifts. */
  width: number;
  height: number;
  /** The largest WebP variant, for the `<img>` itself. */
  src: string;
  /** 'url 480w, url 800w, url 1200w' for the AVIF `<source>`. */
  avifSrcSet: string;
  /** The same widths in WebP. */
  webpSrcSet: string;
}

/** Photos by name: 'Kitchen Splashback.jpg' in public/photos/ is 'kitchen-splashback'. */
export type PhotoManifest = Record<string, ResponsivePhoto>;
