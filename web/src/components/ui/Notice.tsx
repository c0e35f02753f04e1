import type { ReactNode } from 'react';
import { describeError } from '../../lib/errors';
import { Icon } from './Icon';

interface NoticeProps {
  tone?: 'danger' | 'warning' | 'info';
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  /** Announce it: use for errors that appear after a user action. */
  live?: boolean;
  className?: string;
}

export function Notice({ tone = 'info', title, children, action, live, className }: NoticeProps) {
  const icon = tone === 'info' ? 'alertCircle' : 'alertTriangle';
  return (
    <div
      className={`notice notice--${tone} ${className ?? ''}`}
      role={live ? (tone === 'danger' ? 'alert' : 'status') : undefined}
    >
      <Icon name={icon} size={18} />
      <div className="notice__body">
        <p className="notice__title">{title}</p>
        {children && <div className="notice__detail">{children}</div>}
      </div>
      {action && <div className="notice__action">{action}</div>}
    </div>
  );
}

/** An error from an API call, in plain words. */
export function ErrorNotice({
  error,
  action,
  live = true,
  className,
}: {
  error: unknown;
  action?: ReactNode;
  live?: boolean;
  className?: string;
}) {
  const { title, detail } = describeError(error);
  return (
    <Notice tone="danger" title={title} action={action} live={live} className={className}>
      {detail}
    </Notice>
  );
}
