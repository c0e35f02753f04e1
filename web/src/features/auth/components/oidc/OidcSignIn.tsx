import '../../../../styles/oidc.css';
import { isOidcErrorCode, oidcErrorMessages } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Notice } from '../../../../components/ui/Notice';
import { safeNext } from '../../next-path';
import { signInOptionsQuery, startUrl } from './api';

/**
 * "Sign in with …" for each enabled OIDC provider (ADR 48), above the password form, and the
 * words for a refused sign-in the server sent back as `?oidc_error=CODE`.
 */
export function OidcSignIn() {
  const options = useQuery(signInOptionsQuery());
  const [params] = useSearchParams();
  const code = params.get('oidc_error');
  const next = safeNext(params.get('next'));
  const providers = options.data?.providers ?? [];
  return (
    <div className="oidc-sign-in">
      {code && (
        <Notice tone="danger" live title="Single sign-on did not work">
          {isOidcErrorCode(code) ? oidcErrorMessages[code] : oidcErrorMessages.oidc_failed}
        </Notice>
      )}
      {providers.length > 0 && (
        <ul className="oidc-sign-in__list">
          {providers.map((p) => (
            <li key={p.id}>
              <a
                className="btn btn--secondary auth-submit oidc-sign-in__button"
                href={startUrl(p.id, next)}
              >
                Sign in with {p.name}
              </a>
            </li>
          ))}
        </ul>
      )}
      {options.data && !options.data.passwordForEveryone && (
        <p className="setting-note oidc-sign-in__note">
          Password sign-in is kept for the owner’s break-glass account.
        </p>
      )}
      {providers.length > 0 && (
        <p className="oidc-sign-in__or" aria-hidden="true">
          or
        </p>
      )}
    </div>
  );
}
