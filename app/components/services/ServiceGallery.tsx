import { Carousel } from '../carousel/Carousel.tsx';
import { Illustration } from '../ui/Illustration.tsx';

export interface GalleryImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** docs/interactive-parts.md#service-page-carousels: they move on every 4000 ms. */
export const SERVICE_CAROUSEL_MS = 4000;

/**
 * The image carousel of a service page
 * (docs/interactive-parts.md#service-page-carousels): one slide at a time,
 * autoplay every 4000 ms, no loop (it stops on the last image), swipeable,
 * paused on hover where the content asks. A failed image shows the service's
 * labelled placeholder (docs/interactive-parts.md#image-placeholders).
 */
export function ServiceGallery({
  title,
  images,
  placeholderLabel,
  pauseOnHover,
}: {
  title: string;
  images: readonly GalleryImage[];
  placeholderLabel: string;
  pauseOnHover: boolean;
}) {
  return (
    <Carousel
      label={`${title}: pictures`}
      className="service-gallery"
      slidesPerView={1}
      loop={false}
      autoplayMs={SERVICE_CAROUSEL_MS}
      pauseOnHover={pauseOnHover}
      slideErrorMessage={`${title}: picture {n} failed to load`}
      slides={images.map((image, index) => (
        <Illustration
          key={image.src}
          src={image.src}
          alt={image.alt}
          width={image.width}
          height={image.height}
          fallbackLabel={placeholderLabel}
          // The first picture is the page's largest paint: load it at once.
          priority={index === 0}
        />
      ))}
    />
  );
}
