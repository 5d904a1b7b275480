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

/** The business phone as a call link, styled as a button. */
export function CallButton({
  variant = 'secondary',
  size,
  children,
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  children?: ReactNode;
  className?: string;
}) {
  const classes = buttonClass(variant, size);
  return (
    <a href={telHref} className={className ? `${classes} ${className}` : classes}>
      <Icon name="phone" size={18} />
      {children ?? <>Call {business.phone.display}</>}
    </a>
  );
}
