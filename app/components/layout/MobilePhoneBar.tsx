import { business, telHref } from '../../content/business.ts';
import { Icon } from '../ui/Icon.tsx';

/**
 * docs/pages-and-routes.md#mobile-phone-bar: a sticky phone bar at the bottom
 * of small screens once the page has scrolled (shown by ./phone-bar.ts).
 */
export function MobilePhoneBar() {
  return (
    <div className="phone-bar">
      <a href={telHref} className="phone-bar__link">
        <Icon name="phone" size={20} />
        Call now: {business.phone.display}
      </a>
    </div>
  );
}
