/**
 * docs/interactive-parts.md#faq-accordion: none or one answer open; opening one closes the
 * other and clicking the open one closes it. Built on `<details name>` (an
 * exclusive accordion in the browser itself), so it needs no JavaScript, every
 * answer is in the prerendered HTML and each question is announced as a
 * disclosure with its expanded state.
 */
export function FaqAccordion({
  items,
  name = 'faq',
}: {
  items: readonly { question: string; answer: string }[];
  /** Groups the items: the browser keeps at most one open per name. */
  name?: string;
}) {
  return (
    <div className="faq">
      {items.map((item, index) => (
        <details key={item.question} name={name} className="faq__item" id={`${name}-${index + 1}`}>
          <summary className="faq__question">
            <h3 className="faq__question-text">{item.question}</h3>
            <span className="faq__icon" aria-hidden="true" />
          </summary>
          <div className="faq__answer">
            <p>{item.answer}</p>
          </div>
        </details>
      ))}
    </div>
  );
}
