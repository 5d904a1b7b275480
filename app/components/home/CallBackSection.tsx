import type { ReactNode } from 'react';
import type { SectionIntro } from '../../content/home.ts';
import { business, telHref } from '../../content/business.ts';
import { Icon } from '../ui/Icon.tsx';

/**
 * docs/screens.md#home-page item 2: the 'Let Us Call You' section. The
 * call-back form (app/components/forms/CallbackForm.tsx) comes in as `children`
 * and fills `.call-back__form-slot`; the phone lines then sit under the intro.
 * Without a form the slot offers them.
 */
export function CallBackSection({
  content,
  children,
}: {
  content: SectionIntro;
  /** The call-back form; the phone lines then move under the intro. */
  children?: ReactNode;
}) {
  const hours = business.hours.map((entry) => entry.label).join(', ');
  const callNow = (
    <>
      <p className="call-back__lead">Would you rather talk now?</p>
      <p className="call-back__phone">
        <a href={telHref} className="call-back__phone-link">
          <Icon name="phone" size={22} />
          Call {business.phone.display}
        </a>
      </p>
      <p className="call-back__hours">
        <Icon name="clock" size={16} />
        {hours}, and {business.emergency.hours} for emergencies.
      </p>
    </>
  );
  return (
    <section
      id="call-back"
      className="call-back"
      aria-labelledby="call-back-heading"
      data-home-section="call-back"
    >
      <div className="container">
        <div className="call-back__panel">
          <div className="call-back__intro">
            <h2 id="call-back-heading">{content.heading}</h2>
            <p>{content.intro}</p>
            {children ? callNow : null}
          </div>
          <div className="call-back__form-slot">{children ?? callNow}</div>
        </div>
      </div>
    </section>
  );
}
