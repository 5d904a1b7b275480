import { business, fullAddress, mailHref, telHref } from '../../content/business.ts';
import { PageHeader } from '../ui/PageHeader.tsx';

/** What a legal page shows; the page's data picks it from legal.ts. */
export interface LegalDocumentData {
  title: string;
  intro: string;
  /** ISO date, for the `<time>` element. */
  lastUpdated: string;
  /** The same date as people in New Zealand write it, e.g. '1 November 2026'. */
  lastUpdatedText: string;
  sections: readonly { heading: string; paragraphs: readonly string[]; list?: readonly string[] }[];
}

export function sectionId(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * docs/pages-and-routes.md#legal-pages: the privacy policy and the terms, section by section.
 * The table of contents is plain links; jump-to-section.ts makes them glide
 * and move focus (the page's module script, app/browser/site.ts, starts it).
 */
export function LegalDocument({ document }: { document: LegalDocumentData }) {
  return (
    <>
      <PageHeader
        title={document.title}
        intro={
          <>
            <p>{document.intro}</p>
            <p className="legal-updated">
              Last updated <time dateTime={document.lastUpdated}>{document.lastUpdatedText}</time>
            </p>
          </>
        }
      />
      <div className="section section--plain">
        <div className="container legal-layout">
          <nav className="legal-toc" aria-labelledby="legal-toc-heading">
            <h2 id="legal-toc-heading" className="legal-toc__heading">
              On this page
            </h2>
            <ol className="legal-toc__list">
              {document.sections.map((section) => (
                <li key={section.heading}>
                  <a href={`#${sectionId(section.heading)}`}>{section.heading}</a>
                </li>
              ))}
            </ol>
          </nav>
          <article className="legal-body prose">
            {document.sections.map((section) => (
              <section key={section.heading}>
                <h2 id={sectionId(section.heading)}>{section.heading}</h2>
                {section.paragraphs.map((paragraph) => (
                  <p key={paragraph.slice(0, 40)}>{paragraph}</p>
                ))}
                {section.list ? (
                  <ul>
                    {section.list.map((item) => (
                      <li key={item.slice(0, 40)}>{item}</li>
                    ))}
                  </ul>
                ) : null}
              </section>
            ))}
            <section className="legal-contact">
              <h2 id="contact-us">Contact us</h2>
              <address>
                <strong>{business.legalName}</strong>
                <br />
                {fullAddress}
                <br />
                Phone: <a href={telHref}>{business.phone.display}</a>
                <br />
                E-mail: <a href={mailHref}>{business.email}</a>
              </address>
            </section>
          </article>
        </div>
      </div>
    </>
  );
}
