import type { CategoryLink } from '../../blog/category.ts';

/** Category links as chips (docs/blog.md#categories: on cards and on the article). */
export function CategoryChips({
  links,
  label,
  small = false,
}: {
  links: readonly CategoryLink[];
  /** Names the list for assistive technology, e.g. 'Categories of <title>'. */
  label: string;
  small?: boolean;
}) {
  return (
    <ul className={small ? 'chip-list chip-list--small' : 'chip-list'} aria-label={label}>
      {links.map((link) => (
        <li key={link.path}>
          <a href={link.path} className="chip">
            {link.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
