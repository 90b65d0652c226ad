// Clients (clients-and-reports.md "Clients"): every booking belongs to a client of its business,
// found by the guest's phone (E.164, as every create path stores it), else by the email, else made
// new. The rule runs in the database, in a BEFORE INSERT trigger, so that no way of making a
// booking (the API, the booking page, the front desk, a visit's parts, a waitlist offer, a seeded
// demo) can leave one without its client, and two first bookings of one new phone at once make one
// client (the unique phone index, ON CONFLICT). Existing bookings are linked in order of creation,
// so a client keeps the name it was first seen with.
//
// `search_text` is the client's name folded for search (lower case, accents removed with the
// unaccent dictionary) and its email in lower case; `phone_digits` the phone's digits. Both have a
// trigram index (pg_trgm), so a part typed anywhere in them is found without reading every client.
export default /* sql */ `
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE clients (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  name text NOT NULL,
  phone text,
  email text,
  notes text NOT NULL DEFAULT '',
  tags text[] NOT NULL DEFAULT '{}',
  search_text text NOT NULL DEFAULT '',
  phone_digits text NOT NULL DEFAULT '',
  erased_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX clients_phone_key ON clients (business_id, phone) WHERE phone IS NOT NULL;
CREATE INDEX clients_email_idx ON clients (business_id, lower(email)) WHERE email IS NOT NULL;
CREATE INDEX clients_business_name_idx ON clients (business_id, search_text, id);
-- a part of a name, an email or a phone anywhere in it (LIKE '%…%'): trigram indexes
CREATE INDEX clients_search_trgm_idx ON clients USING gin (search_text gin_trgm_ops);
CREATE INDEX clients_phone_trgm_idx ON clients USING gin (phone_digits gin_trgm_ops);

CREATE FUNCTION clients_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(unaccent(NEW.name)) || ' ' || lower(coalesce(NEW.email, ''));
  NEW.phone_digits := regexp_replace(coalesce(NEW.phone, ''), 'D', '', 'g');
  RETURN NEW;
END $$;
CREATE TRIGGER clients_search_text BEFORE INSERT OR UPDATE OF name, email, phone ON clients
  FOR EACH ROW EXECUTE FUNCTION clients_search_text();

-- The client of a guest of a business: by phone, else by email, else a new one named as the guest.
CREATE FUNCTION client_of_guest(p_business text, p_name text, p_phone text, p_email text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  cid text;
  v_phone text := nullif(btrim(p_phone), '');
  v_email text := nullif(btrim(p_email), '');
BEGIN
  IF v_phone IS NOT NULL THEN
    SELECT c.id INTO cid FROM clients c WHERE c.business_id = p_business AND c.phone = v_phone;
    IF cid IS NOT NULL THEN RETURN cid; END IF;
  END IF;
  IF v_email IS NOT NULL THEN
    SELECT c.id INTO cid FROM clients c
     WHERE c.business_id = p_business AND lower(c.email) = lower(v_email) AND c.erased_at IS NULL
     ORDER BY c.created_at, c.id LIMIT 1;
    IF cid IS NOT NULL THEN RETURN cid; END IF;
  END IF;
  INSERT INTO clients (id, business_id, name, phone, email)
  VALUES ('cli_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20), p_business, p_name, v_phone, v_email)
  ON CONFLICT (business_id, phone) WHERE phone IS NOT NULL DO NOTHING
  RETURNING id INTO cid;
  IF cid IS NULL THEN
    -- another transaction made the client of this phone first (it waited for that one to commit)
    SELECT c.id INTO cid FROM clients c WHERE c.business_id = p_business AND c.phone = v_phone;
  END IF;
  RETURN cid;
END $$;

ALTER TABLE bookings ADD COLUMN client_id text REFERENCES clients(id);

CREATE FUNCTION bookings_link_client() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.client_id IS NULL THEN
    NEW.client_id := client_of_guest(NEW.business_id, NEW.guest_name, NEW.guest_phone, NEW.guest_email);
  END IF;
  RETURN NEW;
END $$;

-- Existing bookings, oldest first (the first name seen is the client's). The occupancy trigger
-- would rewrite every booking's occupancy rows for a column it does not read: off while linking.
ALTER TABLE bookings DISABLE TRIGGER bookings_sync_occupancy;
DO $$
DECLARE b record;
BEGIN
  FOR b IN SELECT id, business_id, guest_name, guest_phone, guest_email FROM bookings ORDER BY created_at, id LOOP
    UPDATE bookings SET client_id = client_of_guest(b.business_id, b.guest_name, b.guest_phone, b.guest_email) WHERE id = b.id;
  END LOOP;
END $$;
ALTER TABLE bookings ENABLE TRIGGER bookings_sync_occupancy;

ALTER TABLE bookings ALTER COLUMN client_id SET NOT NULL;
CREATE INDEX bookings_client_idx ON bookings (client_id, start_at);

CREATE TRIGGER bookings_link_client BEFORE INSERT ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_link_client();

-- Retention: clients with no booking in this many months are erased once a day; null keeps them.
ALTER TABLE businesses ADD COLUMN client_retention_months integer
  CHECK (client_retention_months IS NULL OR client_retention_months BETWEEN 12 AND 120);
`;
