import type { ReactNode } from 'react';

/** A top-level screen: a section named by its h1 (`name`-screen, `name`-title), then its content. */
export function Screen({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  return (
    <section className={`${name}-screen`} aria-labelledby={`${name}-title`}>
      <h1 id={`${name}-title`} className="screen-title">
        {title}
      </h1>
      {children}
    </section>
  );
}
