/**
 * A part of an article body: HTML compiled from our own Markdown at build
 * time (app/blog/compile.ts drops raw HTML and checks every link). Its
 * links are plain links, so a link to one of our pages loads that page: the
 * body needs no script.
 */
export function ArticleBody({ html }: { html: string }) {
  return <div className="article-body" dangerouslySetInnerHTML={{ __html: html }} />;
}
