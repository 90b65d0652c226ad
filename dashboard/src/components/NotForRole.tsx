import './admin.css';
import { useT } from '../lib/i18n/index.ts';
/** What a section says to a role the API does not let read it: plainly, instead of an error. */
export function NotForRole({ what, who }: { what: string; who: string }) {
  return <p className="notice">{useT().common.notForRole(what, who)}</p>;
}
