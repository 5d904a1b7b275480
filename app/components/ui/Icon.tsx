/**
 * Line icons from public/images/icons, inlined at build time so they take the
 * text colour (currentColor) and cost no extra request.
 */
const files = import.meta.glob<string>('../../../public/images/icons/*.svg', {
  query: '?raw',
  import: 'default',
  eager: true,
});

const icons: Record<string, string> = Object.fromEntries(
  Object.entries(files).map(([file, source]) => [
    file.replace(/^.*\/([^/]+)\.svg$/, '$1'),
    source
      .replace(/^[\s\S]*?<svg[^>]*>/, '')
      .replace(/<\/svg>\s*$/, '')
      .trim(),
  ]),
);

export type IconName =
  | 'shower'
  | 'window'
  | 'door'
  | 'cat'
  | 'splashback'
  | 'repair'
  | 'balustrade'
  | 'retrofit'
  | 'pool'
  | 'phone'
  | 'mail'
  | 'map-pin'
  | 'clock'
  | 'star'
  | 'shield'
  | 'check'
  | 'menu'
  | 'close'
  | 'chevron-down'
  | 'chevron-left'
  | 'chevron-right'
  | 'pause'
  | 'play'
  | 'sun'
  | 'thermometer'
  | 'droplet'
  | 'facebook'
  | 'instagram'
  | 'quote'
  | 'tag'
  | 'award'
  | 'tool'
  | 'file-text'
  | 'dollar';

export function Icon({
  name,
  size = 20,
  className,
  label,
}: {
  name: IconName;
  size?: number;
  className?: string;
  /** Give a label only when the icon carries meaning on its own. */
  label?: string;
}) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      focusable="false"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      // The markup comes from the project's own icon files, read at build time.
      dangerouslySetInnerHTML={{ __html: icons[name] ?? '' }}
    />
  );
}
