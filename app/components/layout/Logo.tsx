import { business } from '../../content/business.ts';

export function Logo() {
  return (
    <a href="/" className="logo">
      <svg
        className="logo__mark"
        width="36"
        height="36"
        viewBox="0 0 36 36"
        aria-hidden="true"
        focusable="false"
      >
        <rect x="2" y="2" width="32" height="32" rx="7" fill="#0f4c63" />
        <rect x="8" y="8" width="20" height="20" rx="2" fill="#e3f3f7" />
        <path
          d="M11 24 22 11M16 25l9-10.5"
          stroke="#ffffff"
          strokeWidth="2.5"
          strokeLinecap="round"
        />
        <path d="M18 8v20M8 18h20" stroke="#0f4c63" strokeWidth="2" />
      </svg>
      <span className="logo__text">
        <span className="logo__name">{business.name}</span>
        <span className="logo__tag">Tauranga glaziers since {business.foundedYear}</span>
      </span>
    </a>
  );
}
