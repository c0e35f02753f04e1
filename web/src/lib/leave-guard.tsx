import { useEffect, useRef, type RefObject } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';

interface LeaveGuardProps {
  /** The form holds input not saved yet. */
  dirty: boolean;
  /** Set once the input was saved: the navigation that follows is let through. */
  allowed: RefObject<boolean>;
}

/**
 * Asks before leaving a form with unsaved input: in-app navigation through the router's
 * blocker, closing or reloading the tab through `beforeunload`. One per screen (the router
 * keeps one blocker), so forms shown in a dialog do without it.
 */
export function LeaveGuard({ dirty, allowed }: LeaveGuardProps) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !allowed.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
      // Older browsers need returnValue set to show their own "Leave site?" prompt.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty, allowed]);
  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      open
      title="Leave without saving?"
      confirmLabel="Leave and discard"
      tone="danger"
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      What you typed here is not saved yet. Stay to save it, or leave and lose it.
    </ConfirmDialog>
  );
}

/** A guard for one form: render `guard`, call `allowLeave()` right before navigating after a save. */
export function useLeaveGuard(dirty: boolean) {
  const allowed = useRef(false);
  return {
    guard: <LeaveGuard dirty={dirty} allowed={allowed} />,
    allowLeave: () => {
      allowed.current = true;
    },
  };
}

/** Whether two form states differ (plain data: strings, numbers, booleans, arrays, objects). */
export const differs = (a: unknown, b: unknown): boolean => JSON.stringify(a) !== JSON.stringify(b);
