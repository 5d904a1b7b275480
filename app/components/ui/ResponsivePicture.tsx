import type { ResponsivePhoto } from '../../lib/photos.ts';
import { Illustration } from './Illustration.tsx';

/**
 * A raster photo in AVIF and WebP at the width the layout needs (variants
 * made at build time, scripts/responsive-images.ts), with its size set so
 * nothing shifts and the labelled placeholder of SPEC §2 if it fails.
 */
export function ResponsivePicture({
  photo,
  alt,
  sizes = '100vw',
  fallbackLabel,
  priority,
  className,
}: {
  /** The photo's manifest entry, from a loader (`getPhoto` in app/content/photos.ts). */
  photo: ResponsivePhoto;
  alt: string;
  /** How wide the picture is shown, e.g. '(min-width: 1024px) 50vw, 100vw'. */
  sizes?: string;
  /** SPEC §2: the placeholder's label if the photo fails to load. */
  fallbackLabel?: string;
  /** Above the fold: load at once. */
  priority?: boolean;
  className?: string;
}) {
  return (
    <picture>
      <source type="image/avif" srcSet={photo.avifSrcSet} sizes={sizes} />
      <source type="image/webp" srcSet={photo.webpSrcSet} sizes={sizes} />
      <Illustration
        src={photo.src}
        alt={alt}
        width={photo.width}
        height={photo.height}
        fallbackLabel={fallbackLabel}
        priority={priority}
        className={className}
      />
    </picture>
  );
}
