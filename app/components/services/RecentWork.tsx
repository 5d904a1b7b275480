/**
 * A photo of a real job, as the service page's data gives it
 * (app/pages/services/[slug].astro): made by Astro's image service at build
 * time in AVIF and WebP at several widths, with a JPEG for browsers that
 * take neither.
 */
export interface RecentWorkPhoto {
  id: string;
  alt: string;
  caption?: string | undefined;
  /** srcset of the AVIF and WebP files. */
  avif: string;
  webp: string;
  /** The JPEG fallback and its size (which also sets the box before it loads). */
  src: string;
  width: number;
  height: number;
}

/** How wide a photo shows: one column on a phone, two or three beside each other on wider screens. */
export const RECENT_WORK_SIZES = '(min-width: 64rem) 22rem, (min-width: 40rem) 45vw, 92vw';

/**
 * "Recent work" (docs/operations.md#site-content): the owner's photos of
 * jobs for this service, below the fold, so each loads lazily. Nothing is
 * rendered when there are none (the illustrations stay the page's images).
 */
export function RecentWork({ id, photos }: { id: string; photos: readonly RecentWorkPhoto[] }) {
  if (photos.length === 0) return null;
  const headingId = `${id}-recent-work`;
  return (
    <section className="section section--plain recent-work" aria-labelledby={headingId}>
      <div className="container">
        <header className="section-heading">
          <h2 id={headingId}>Recent work</h2>
        </header>
        <ul className="recent-work__grid">
          {photos.map((photo) => (
            <li key={photo.id}>
              <figure className="recent-work__photo">
                <picture>
                  <source type="image/avif" srcSet={photo.avif} sizes={RECENT_WORK_SIZES} />
                  <source type="image/webp" srcSet={photo.webp} sizes={RECENT_WORK_SIZES} />
                  <img
                    src={photo.src}
                    alt={photo.alt}
                    width={photo.width}
                    height={photo.height}
                    loading="lazy"
                    decoding="async"
                  />
                </picture>
                {photo.caption ? <figcaption>{photo.caption}</figcaption> : null}
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
