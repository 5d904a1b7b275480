import { useEffect, useRef, useState } from 'react';

export interface IllustrationProps {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** SPEC §2: the label of the coloured placeholder shown if the image fails. */
  fallbackLabel?: string;
  /** Above the fold: load eagerly with high priority (the page's LCP image). */
  priority?: boolean;
  className?: string;
  /** Responsive sizes hint, for raster sources with a srcset. */
  sizes?: string;
  srcSet?: string;
}

/**
 * A local image with its size set (no layout shift), lazy below the fold, and
 * the labelled placeholder of SPEC §2 when it fails to load — including a
 * failure that happened before the page hydrated.
 */
export function Illustration({
  src,
  alt,
  width,
  height,
  fallbackLabel = 'Image not available',
  priority = false,
  className,
  sizes,
  srcSet,
}: IllustrationProps) {
  const [failed, setFailed] = useState(false);
  const imageRef = useRef<HTMLImageElement>(null);

  useEffect(() => {
    const image = imageRef.current;
    // The error event may have fired before React attached its handler.
    if (image && image.complete && image.naturalWidth === 0) {
      console.warn('image failed to load', src);
      setFailed(true);
    }
  }, [src]);

  const classes = `illustration${className ? ` ${className}` : ''}`;
  if (failed) {
    return (
      <div
        className={`${classes} illustration--fallback`}
        role="img"
        aria-label={alt}
        style={{ aspectRatio: `${width} / ${height}` }}
      >
        <span aria-hidden="true">{fallbackLabel}</span>
      </div>
    );
  }
  return (
    <img
      ref={imageRef}
      className={classes}
      src={src}
      srcSet={srcSet}
      sizes={sizes}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : 'auto'}
      onError={() => {
        console.warn('image failed to load', src);
        setFailed(true);
      }}
    />
  );
}
