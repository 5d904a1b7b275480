import type { ReactNode } from 'react';

/** The opening band of an inner page: its one h1 and what it is about. */
export function PageHeader({
  eyebrow,
  title,
  intro,
  actions,
  aside,
}: {
  eyebrow?: string;
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div className={aside ? 'page-header page-header--split' : 'page-header'}>
      <div className="container page-header__inner">
        <div className="page-header__text">
          {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
          <h1>{title}</h1>
          {intro ? <div className="page-header__intro">{intro}</div> : null}
          {actions ? <div className="button-row">{actions}</div> : null}
        </div>
        {aside ? <div className="page-header__aside">{aside}</div> : null}
      </div>
    </div>
  );
}
