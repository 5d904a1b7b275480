import type { ComponentProps, ReactNode } from 'react';
import { telHref, business } from '../../content/business.ts';
import { Icon } from './Icon.tsx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'inverse';
export type ButtonSize = 'md' | 'lg';

export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md'): string {
  return `button button--${variant} button--${size}`;
}

/**
 * An internal link styled as a button (the calls to action). A plain link:
 * every link is a full page load, and it needs no React in the browser.
 */
export function ButtonLink({
  to,
  variant,
  size,
  className,
  children,
  ...props
}: Omit<ComponentProps<'a'>, 'href'> & {
  /** The address the button goes to (rendered as `href`). */
  to: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
}) {
  const classes = buttonClass(variant, size);
  return (
    <a {...props} href={to} className={className ? `${classes} ${className}` : classes}>
      {children}
    </a>
  );
}

/**
 * The business phone as a call link, styled as a button. An island gives
 * the phone as a prop (its code never states the content); a page rendered
 * on the server may leave it to the published identity.
 */
export function CallButton({
  variant = 'secondary',
  size,
  children,
  className,
  phone,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  children?: ReactNode;
  className?: string;
  phone?: { display: string; e164: string };
}) {
  const classes = buttonClass(variant, size);
  const href = phone ? `tel:${phone.e164}` : telHref;
  return (
    <a href={href} className={className ? `${classes} ${className}` : classes}>
      <Icon name="phone" size={18} />
      {children ?? <>Call {(phone ?? business.phone).display}</>}
    </a>
  );
}
