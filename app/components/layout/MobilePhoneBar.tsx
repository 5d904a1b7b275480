import { useEffect, useState } from 'react';
import { business, telHref } from '../../content/business.ts';
import { Icon } from '../ui/Icon.tsx';

/** SPEC §9: the scrolled state begins past 50 px. */
export const SCROLLED_THRESHOLD_PX = 50;

/** SPEC §2: a sticky phone bar at the bottom of small screens once the page has scrolled. */
export function MobilePhoneBar() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(window.scrollY > SCROLLED_THRESHOLD_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  return (
    <div className="phone-bar" data-visible={visible || undefined}>
      <a href={telHref} className="phone-bar__link">
        <Icon name="phone" size={20} />
        Call now: {business.phone.display}
      </a>
    </div>
  );
}
