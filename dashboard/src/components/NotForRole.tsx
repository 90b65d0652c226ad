import './admin.css';
/** What a section says to a role the API does not let read it: plainly, instead of an error. */
export function NotForRole({ what, who }: { what: string; who: string }) {
  return (
    <p className="notice">
      {what} is not available for your role. {who}
    </p>
  );
}
