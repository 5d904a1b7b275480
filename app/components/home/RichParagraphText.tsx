import { Link } from 'react-router';
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
          <Link key={index} to={part.path}>
            {part.text}
          </Link>
        ),
      )}
    </p>
  );
}
