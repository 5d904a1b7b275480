export interface Crumb {
  name: string;
  path: string;
}

/**
 * A visible trail such as Home / Services / Windows. The last item is the
 * current page and is not a link. Pair it with `breadcrumbJsonLd` in meta.
 */
export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol className="breadcrumbs__list">
        {items.map((item, index) => (
          <li key={item.path} className="breadcrumbs__item">
            {index === items.length - 1 ? (
              <span aria-current="page">{item.name}</span>
            ) : (
              <a href={item.path}>{item.name}</a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
