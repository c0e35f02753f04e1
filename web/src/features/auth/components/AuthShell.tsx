import type { ReactNode } from 'react';
import { BrandMark } from '../../../components/ui/BrandMark';

/** The frame of the signed-out screens: the brand, a heading and one card. */
export function AuthShell({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main id="main" className="auth-page" tabIndex={-1}>
      <div className="auth-card">
        <p className="auth-brand">
          <BrandMark size={26} />
          Pagewatch
        </p>
        <h1 className="auth-title">{title}</h1>
        {intro && <p className="auth-intro">{intro}</p>}
        {children}
      </div>
    </main>
  );
}
