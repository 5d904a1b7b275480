import type { RichParagraph } from '../../content/home.ts';

/** A paragraph of plain text and inline site links, in order (app/content/home.ts). */
export function RichParagraphText({ paragraph }: { paragraph: RichParagraph }) {
  return (
    <p>
      {paragraph.map((part, index) =>
        typeof part === 'string' ? (
          part
        ) : (
          // The parts of a paragraph never move: the position is their identity.
          <a key={index} href={part.path}>
            {part.text}
          </a>
        ),
      )}
    </p>
  );
}
