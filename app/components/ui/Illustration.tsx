import { useEffect, useLayoutEffect, useRef } from 'react';
import { restoreImage, startImageFallbacks } from './image-fallback.ts';

export interface IllustrationProps {
  src: string;
  alt: string;
  width: number;
  height: number;
  /**
   * docs/interactive-parts.md#image-placeholders: the label of the coloured
   * placeholder shown if the image fails.
   */
  fallbackLabel?: string;
  /** Above the fold: load eagerly with high priority (the page's LCP image). */
  priority?: boolean;
  className?: string;
}

/**
 * A local image with its size set (no layout shift), lazy below the fold, and
 * the labelled placeholder of docs/interactive-parts.md#image-placeholders
 * when it fails to load: image-fallback.ts puts it in, with no React in the
 * browser (a page starts it for the whole document), including a failure
 * that happened before it started.
 */
export function Illustration({
  src,
  alt,
  width,
  height,
  fallbackLabel = 'Image not available',
  priority = false,
  className,
}: IllustrationProps) {
  const imageRef = useRef<HTMLImageElement>(null);

  // While React hydrates the page, each image starts the module on itself.
  useEffect(() => {
    if (imageRef.current) return startImageFallbacks(imageRef.current);
  }, [src]);

  // React updates or removes the image it rendered, never the placeholder
  // that took its place: put the image back first (a layout effect's cleanup
  // runs before React removes the element). A new address gets a new try.
  useLayoutEffect(() => {
    const image = imageRef.current;
    return () => {
      if (image) restoreImage(image);
    };
  }, [src]);

  return (
    <img
      ref={imageRef}
      className={`illustration${className ? ` ${className}` : ''}`}
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : 'auto'}
      // What image-fallback.ts finds the image by, and the placeholder's label.
      data-fallback-label={fallbackLabel}
    />
  );
}
