import type { ReactNode } from 'react';
import './forms.css';

/** A word that marks a row (inactive, not online-bookable, booking disabled). */
export function Tag({ children, warn }: { children: ReactNode; warn?: boolean }) {
  return <span className={warn ? 'tag tag-warn' : 'tag'}>{children}</span>;
}
