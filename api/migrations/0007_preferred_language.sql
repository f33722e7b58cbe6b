-- The portal speaks English and Arabic (issue 21). Each account has a preferred language:
-- every email it is sent, its calendar invitations and the pages the API renders for it follow
-- it. `en` (the default, and every account made before this migration) or `ar`.
ALTER TABLE users ADD COLUMN preferred_language TEXT NOT NULL DEFAULT 'en'
    CONSTRAINT users_preferred_language_check CHECK (preferred_language IN ('en', 'ar'));

-- A newsletter subscriber has no account: the language of the page they subscribed on, so
-- their confirmation email and the unsubscribe page are in it.
ALTER TABLE newsletter_subscribers ADD COLUMN language TEXT NOT NULL DEFAULT 'en'
    CONSTRAINT newsletter_subscribers_language_check CHECK (language IN ('en', 'ar'));
