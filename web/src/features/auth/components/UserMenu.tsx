import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice } from '../../../components/ui/Notice';
import { useLogout } from '../api/mutations';
import { useMe } from '../api/session';
import { roleLabel } from '../roles';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('') || '?';

/** The person's menu in the top bar: who is signed in, their account, and signing out. */
export function UserMenu() {
  const me = useMe();
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    // Tabbing out closes it. Not onBlur: Safari does not focus clicked buttons, so a blur with
    // no related target would close the menu before the click on "Sign out" lands.
    const onFocus = (event: FocusEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open]);

  const close = () => setOpen(false);
  return (
    <div className="usermenu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="usermenu__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="avatar" aria-hidden="true">
          {initials(me.name)}
        </span>
        <span className="usermenu__who">
          <span className="usermenu__name">{me.name}</span>
          <span className="usermenu__role">{roleLabel[me.role]}</span>
        </span>
        <Icon name="chevronDown" size={14} />
        <span className="visually-hidden">: account menu</span>
      </button>
      <div id={panelId} className="usermenu__panel" hidden={!open}>
        <div className="usermenu__head">
          <p className="usermenu__fullname">{me.name}</p>
          <p className="usermenu__email">{me.email}</p>
          <p className="usermenu__badge">
            <Icon name="shield" size={12} />
            {roleLabel[me.role]}
          </p>
        </div>
        <ul className="usermenu__list">
          <li>
            <Link to="/settings/account" className="usermenu__item" onClick={close}>
              <Icon name="user" />
              Account
            </Link>
          </li>
          <li>
            <Link to="/settings/api-keys" className="usermenu__item" onClick={close}>
              <Icon name="key" />
              API keys
            </Link>
          </li>
          <li className="usermenu__sep" role="separator" />
          <li>
            <button
              type="button"
              className="usermenu__item"
              disabled={logout.isPending}
              onClick={() => logout.mutate(false)}
            >
              <Icon name="logOut" />
              Sign out
            </button>
          </li>
          <li>
            <button
              type="button"
              className="usermenu__item"
              disabled={logout.isPending}
              onClick={() => logout.mutate(true)}
            >
              <Icon name="logOut" />
              <span>
                Sign out everywhere
                <span className="usermenu__note">Ends your sessions on every device</span>
              </span>
            </button>
          </li>
        </ul>
        {logout.error && <ErrorNotice error={logout.error} className="usermenu__error" />}
      </div>
    </div>
  );
}
