import { business } from '../../content/business.ts';
import { ButtonLink, CallButton } from '../ui/ButtonLink.tsx';

/** docs/blog.md#need-help-now-box: the 'Need help now?' box placed inside the article body. */
export function HelpNowBox() {
  return (
    <aside className="help-now" aria-labelledby="help-now-heading">
      <h2 id="help-now-heading" className="help-now__title">
        Need help now?
      </h2>
      <p>
        Cracked, fogged or broken glass? Our glaziers will look at it and give you a clear, fixed
        price. If it cannot wait, call us: our emergency line answers {business.emergency.hours}.
      </p>
      <div className="button-row">
        <ButtonLink to="/quote">Request a Free Quote</ButtonLink>
        <CallButton />
      </div>
    </aside>
  );
}
