-- A Calendly booking without proof of who the client is (no valid signed reference) uses no
-- credit and waits for the admin ("Needs attention", client_id NULL, the invitee's email and
-- name kept). A signed-in client whose account email is the invitee's sees it on the dashboard
-- and may use a credit for it, or say "This wasn't me": disowned_at records that answer, so the
-- booking leaves that client's dashboard and stays for the admin.
ALTER TABLE bookings ADD COLUMN disowned_at TEXT;
-- The dashboard looks unassigned bookings up by the client's email.
CREATE INDEX bookings_invitee_email_idx ON bookings (invitee_email, session_date);
