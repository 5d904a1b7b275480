import type { ReasonsToTrust, TrustBoxId } from '../../content/home.ts';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { SectionHeading } from '../ui/Section.tsx';

const boxIcons: Record<TrustBoxId, IconName> = {
  'advantage-plan': 'award',
  workmanship: 'shield',
  insurance: 'file-text',
  pricing: 'dollar',
};

/**
 * docs/screens.md#home-page item 5: 'Reasons to Trust', four boxes, the
 * Advantage Plan with every item.
 */
export function TrustReasons({ content }: { content: ReasonsToTrust }) {
  return (
    <section
      className="section section--tint trust-reasons"
      aria-labelledby="trust-heading"
      data-home-section="trust"
    >
      <div className="container">
        <SectionHeading id="trust-heading" title={content.heading} intro={<p>{content.intro}</p>} />
        <ul className="trust-reasons__grid">
          {content.boxes.map((box) => (
            <li key={box.id} className={`trust-box trust-box--${box.id}`}>
              <span className="icon-badge" aria-hidden="true">
                <Icon name={boxIcons[box.id]} size={24} />
              </span>
              <h3 className="trust-box__title">{box.title}</h3>
              <p>{box.description}</p>
              {box.items ? (
                <ul className="check-list">
                  {box.items.map((item) => (
                    <li key={item}>
                      <Icon name="check" size={18} />
                      {item}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
