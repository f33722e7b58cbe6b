-- A booking's calendar invitation (RFC 5545/5546): every message about it carries the same UID
-- and a SEQUENCE that grows on each change, so a calendar updates or removes the event it
-- already has instead of adding another or ignoring the cancellation.
--
-- ics_sequence: the SEQUENCE of the last invitation sent for the booking; a cancellation (or a
-- reschedule) sends the next one.
ALTER TABLE bookings ADD COLUMN ics_sequence BIGINT NOT NULL DEFAULT 0;
-- ics_uid: the booking whose UID the invitation carries, when it is not this one: a booking a
-- reschedule made takes over the UID of the booking it replaces (NULL: this booking's own id).
ALTER TABLE bookings ADD COLUMN ics_uid TEXT;
