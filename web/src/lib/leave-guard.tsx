import { useEffect, useRef, useSyncExternalStore, type RefObject } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';

interface Entry {
  dirty: boolean;
  allowed: RefObject<boolean>;
}

// Every guarded form on screen; the router keeps one blocker, so the first guard holds it and
// asks on behalf of all (the account page has several forms).
const entries: Entry[] = [];
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const anyUnsaved = () => entries.some((e) => e.dirty && !e.allowed.current);

// A leave inside the screen (a back button or Cancel that swaps the form for a list without
// changing the address) waiting for the person's answer.
let pendingLeave: (() => void) | null = null;
const pendingOf = () => pendingLeave;

/**
 * Leaves a form inside a screen (its Cancel, an in-screen back button): at once when nothing
 * is unsaved, otherwise after the same question the router's blocker asks.
 */
export function leaveScreen(go: () => void): void {
  if (!anyUnsaved()) {
    go();
    return;
  }
  pendingLeave = go;
  notify();
}

/** Holds the router's blocker and the browser's unload question for every guarded form. */
function Blocker() {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && anyUnsaved(),
  );
  useEffect(() => {
    const onUnload = (event: BeforeUnloadEvent) => {
      if (!anyUnsaved()) return;
      event.preventDefault();
      // Older browsers need returnValue set to show their own "Leave site?" prompt.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, []);
  const pending = useSyncExternalStore(subscribe, pendingOf);
  if (blocker.state !== 'blocked' && pending === null) return null;
  const answer = (leave: boolean) => {
    if (blocker.state === 'blocked') {
      if (leave) blocker.proceed();
      else blocker.reset();
      return;
    }
    pendingLeave = null;
    notify();
    if (leave) pending?.();
  };
  return (
    <ConfirmDialog
      open
      title="Leave without saving?"
      confirmLabel="Leave and discard"
      tone="danger"
      onCancel={() => answer(false)}
      onConfirm={() => answer(true)}
    >
      What you typed here is not saved yet. Stay to save it, or leave and lose it.
    </ConfirmDialog>
  );
}

/**
 * Asks before leaving a form with unsaved input: in-app navigation through the router's
 * blocker, closing or reloading the tab through `beforeunload`. Forms in a dialog over
 * another form do without it (the form below guards the screen).
 */
function LeaveGuard({ entry, dirty }: { entry: Entry; dirty: boolean }) {
  entry.dirty = dirty;
  useEffect(() => {
    entries.push(entry);
    notify();
    return () => {
      entries.splice(entries.indexOf(entry), 1);
      // The last form gone takes an unanswered in-screen leave with it.
      if (entries.length === 0) pendingLeave = null;
      notify();
    };
  }, [entry]);
  const leads = useSyncExternalStore(subscribe, () => entries[0] === entry);
  return leads ? <Blocker /> : null;
}

/** A guard for one form: render `guard`, call `allowLeave()` right before navigating after a save. */
export function useLeaveGuard(dirty: boolean) {
  const allowed = useRef(false);
  const entry = useRef<Entry>({ dirty, allowed }).current;
  return {
    guard: <LeaveGuard entry={entry} dirty={dirty} />,
    allowLeave: () => {
      allowed.current = true;
    },
  };
}

/** Whether two form states differ (plain data: strings, numbers, booleans, arrays, objects). */
export const differs = (a: unknown, b: unknown): boolean => JSON.stringify(a) !== JSON.stringify(b);
