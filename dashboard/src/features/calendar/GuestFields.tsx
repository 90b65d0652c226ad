import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Field } from '../../components/Field.tsx';
import { api, type ClientListItem, unwrap } from '../../lib/api.ts';
import { useT } from '../../lib/i18n/index.ts';
import { clientKeys } from '../../lib/query-keys.ts';

/** Typing pauses this long before clients are looked up: one request per word, not per key. */
const TYPING_MS = 250;
const SHOWN = 5;

/**
 * `Guest name`, `Phone` and `Email` of New booking, with the business's clients that match what is
 * being typed in the name or the phone (clients-and-reports.md: "New booking suggests existing
 * clients as the name or phone is typed"). Choosing one fills the three fields; the booking is then
 * linked to that client by its phone as every booking is.
 */
export function GuestFields(props: { slug: string; errors: Record<string, string | undefined> }) {
  const t = useT();
  const w = t.newBooking;
  const [guest, setGuest] = useState({ name: '', phone: '', email: '' });
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const id = setTimeout(() => setSearch(typed.trim()), TYPING_MS);
    return () => clearTimeout(id);
  }, [typed]);
  const matches = useQuery({
    queryKey: clientKeys.list(props.slug, { q: search }),
    enabled: search.length >= 2,
    queryFn: async () =>
      unwrap(
        await api.GET('/admin/v1/businesses/{slug}/clients', {
          params: { path: { slug: props.slug }, query: { q: search, limit: SHOWN } },
        }),
      ).clients,
  });
  const change = (field: 'name' | 'phone' | 'email', value: string) => {
    setGuest((g) => ({ ...g, [field]: value }));
    if (field !== 'email') setTyped(value);
  };
  const choose = (c: ClientListItem) => {
    setGuest({ name: c.name, phone: c.phone ?? '', email: c.email ?? '' });
    setTyped('');
    setSearch('');
  };
  const shown = search.length >= 2 ? (matches.data ?? []).filter((c) => c.name !== guest.name || c.phone !== guest.phone) : [];
  return (
    <>
      <Field label={w.guestName} error={props.errors['guest.name']}>
        <input
          name="guestName"
          required
          maxLength={100}
          autoComplete="off"
          value={guest.name}
          onChange={(e) => change('name', e.target.value)}
        />
      </Field>
      <Field label={w.phone} error={props.errors['guest.phone']}>
        <input
          name="phone"
          type="tel"
          required
          maxLength={40}
          autoComplete="off"
          placeholder="+36 30 123 4567"
          value={guest.phone}
          onChange={(e) => change('phone', e.target.value)}
        />
      </Field>
      <div className="client-suggestions" aria-live="polite">
        {shown.length > 0 && (
          <>
            <p className="hint">{w.clientsFound}</p>
            <ul>
              {shown.map((c) => (
                <li key={c.id}>
                  <button type="button" className="link-button" onClick={() => choose(c)}>
                    {w.pickClient(c.name, c.phone ?? c.email ?? '')}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <Field label={w.email} error={props.errors['guest.email']}>
        <input name="email" type="email" autoComplete="off" value={guest.email} onChange={(e) => change('email', e.target.value)} />
      </Field>
    </>
  );
}
