//! How a booking comes to be: from Calendly's webhook ([`from_calendly`], with the reschedule
//! that takes over a credit, and [`tombstone`] for a cancel that came first), by phone in
//! Booking Management ([`by_phone`]), and how a pending one becomes confirmed with a credit
//! ([`confirm_with_credit`]: the client's claim, the admin's Assign). All write through
//! `store::insert` / `store::set_confirmed`.

use chrono::{DateTime, Utc};
use sqlx::AnyConnection;

use super::{Context, DEFAULT_MINUTES, DEFAULT_TITLE, Held, Mail, recipient, store};
use crate::domain::accounts::{language_for, language_of, language_of_email};
use crate::domain::credits::{self, Applied};
use crate::domain::{BookingSource, BookingStatus, DomainError, Language, new_id};
use crate::email::{OutgoingEmail, locale, templates};

/// Why a booking without a valid signed reference waits for the admin (the coach's email).
pub const NO_PROOF: &str = "it was booked without the client reference of /book-session, so nothing proves who the client is and no credit was used; assign it to a client or cancel it in Booking Management";
/// Why a client's own booking waits: they had no credit.
const NO_CREDIT: &str = "the client has no credit available, so none was used; assign it once they have one, or cancel it";

/// A reason a booking waits, in the coach's language.
fn reason_in(lang: Language, reason: &'static str) -> &'static str {
    match (lang, reason) {
        (Language::Ar, NO_PROOF) => {
            "تم الحجز دون المرجع الخاص بالعميل من صفحة /book-session، فلا يوجد ما يثبت هوية العميل ولم يُخصم أي رصيد؛ يمكنك إسناده إلى عميل أو إلغاؤه من إدارة الحجوزات"
        }
        (Language::Ar, NO_CREDIT) => {
            "لا يتوفر لدى العميل رصيد، لذا لم يُخصم أي رصيد؛ يمكنك إسناده إليه بعد توفر رصيد لديه، أو إلغاؤه"
        }
        _ => reason,
    }
}

/// What a Calendly webhook did to our bookings.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Duplicate,
    Ignored(&'static str),
    Confirmed,
    Pending(&'static str),
    Cancelled {
        refunded: bool,
    },
    /// The cancel arrived first; this create found its tombstone.
    AlreadyCancelled,
    Rescheduled,
}

impl Outcome {
    /// Its name in `/metrics` (`webhooks_total`'s `outcome`).
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Duplicate => "replay",
            Outcome::Ignored("not a booking event") => "unknown_event",
            Outcome::Ignored(_) => "ignored",
            Outcome::Confirmed => "confirmed",
            Outcome::Pending(NO_PROOF) => "unknown_client",
            Outcome::Pending(_) => "no_credit",
            Outcome::Cancelled { .. } => "cancelled",
            Outcome::AlreadyCancelled => "already_cancelled",
            Outcome::Rescheduled => "rescheduled",
        }
    }
}

/// A booking made on Calendly's scheduling page, as its webhook tells it.
pub struct Invitee<'a> {
    pub uri: &'a str,
    pub email: String,
    pub name: String,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub event_uri: Option<&'a str>,
    pub event_name: Option<&'a str>,
    pub meet_link: Option<&'a str>,
    pub cancel_url: Option<&'a str>,
    pub reschedule_url: Option<&'a str>,
}

impl<'a> Invitee<'a> {
    fn reference(&self) -> store::CalendlyRef<'_> {
        store::CalendlyRef {
            invitee_uri: self.uri,
            invitee_email: &self.email,
            invitee_name: &self.name,
            event_uri: self.event_uri,
            cancel_url: self.cancel_url,
            reschedule_url: self.reschedule_url,
        }
    }

    fn title(&self) -> &'a str {
        self.event_name.unwrap_or(DEFAULT_TITLE)
    }
}

/// A client that the signed reference proves: (user id, full name).
pub type ProvenClient = (String, String);

/// `invitee.created`. A reschedule (`old_invitee`) takes over the old booking's credit,
/// whichever webhook came first; a booking that held no credit moves nothing, but a client's
/// "This wasn't me" stays with it. Otherwise the proven client's credit is used; without proof,
/// or without a credit, the booking is pending and the coach is told.
pub async fn from_calendly(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    inv: &Invitee<'_>,
    client: Option<&ProvenClient>,
    old_invitee: Option<&str>,
) -> Result<(Outcome, Mail), sqlx::Error> {
    if let Some(existing) = store::hold_invitee(conn, ctx.backend, inv.uri).await? {
        let outcome = if existing.status == BookingStatus::Cancelled {
            Outcome::AlreadyCancelled
        } else {
            Outcome::Duplicate
        };
        return Ok((outcome, Vec::new()));
    }
    let id = new_id();
    let old = match old_invitee {
        Some(uri) => store::hold_invitee(conn, ctx.backend, uri).await?,
        None => None,
    };
    let (client_id, outcome, credit_lot) =
        take_credit(conn, ctx, inv, client, old.as_ref()).await?;
    let confirmed = !matches!(outcome, Outcome::Pending(_));
    let booking = store::NewBooking {
        id: &id,
        client_id: client_id.as_deref(),
        start: inv.start,
        end: inv.end,
        status: if confirmed {
            BookingStatus::Confirmed
        } else {
            BookingStatus::Pending
        },
        source: BookingSource::Calendly,
        holds_credit: confirmed,
        credit_lot_id: credit_lot.as_deref(),
        notes: Some(inv.title()),
        meet_link: inv.meet_link,
        created_by: None,
        calendly: Some(inv.reference()),
        // A client's "This wasn't me" stays with a rescheduled booking that held no credit.
        disowned_at: old
            .as_ref()
            .filter(|o| !o.holds_credit())
            .and_then(|o| o.disowned_at.as_deref()),
    };
    store::insert(conn, &booking, ctx.now).await?;
    let mut details = ctx.details(&id, inv.title(), inv.start, inv.end, inv.meet_link);
    if let Some(old) = old_invitee {
        // The rescheduled event keeps its UID in the client's calendar, with the next SEQUENCE.
        store::take_over_invitation(conn, &mut details.invitation, &id, old).await?;
    }
    // Who is told: the coach about a pending booking, else the booking's client (or the
    // invitee's account), each in their own language.
    let lang = match &outcome {
        Outcome::Pending(_) => language_of_email(conn, &ctx.site.coach_email).await?,
        _ => language_for(conn, client_id.as_deref(), &inv.email).await?,
    };
    let mail = announce(ctx, lang, inv, client, &outcome, &details);
    tracing::info!(booking_id = id, ?outcome, "Calendly booking recorded");
    Ok((outcome, vec![mail]))
}

/// Where a new Calendly booking's credit comes from: the booking it reschedules (whose credit
/// it takes over), else the proven client's account. Answers the booking's client, what
/// happened, and the lot of its credit.
async fn take_credit(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    inv: &Invitee<'_>,
    client: Option<&ProvenClient>,
    old: Option<&Held>,
) -> Result<(Option<String>, Outcome, Option<String>), sqlx::Error> {
    if let Some(old) = old.filter(|o| o.holds_credit()) {
        store::hand_over_credit(conn, &old.id, ctx.now).await?;
        let owner = old.client_id.clone().or(client.map(|c| c.0.clone()));
        return Ok((owner, Outcome::Rescheduled, old.credit_lot_id.clone()));
    }
    let Some((user_id, _)) = client else {
        return Ok((None, Outcome::Pending(NO_PROOF), None));
    };
    let reference = format!("calendly:{}", inv.uri);
    let debit = credits::debit_for_booking(conn, ctx.backend, user_id, &reference).await?;
    let outcome = match debit.applied {
        Applied::Yes | Applied::AlreadyApplied => Outcome::Confirmed,
        Applied::Insufficient | Applied::NoAccount => Outcome::Pending(NO_CREDIT),
    };
    Ok((Some(user_id.clone()), outcome, debit.lot))
}

/// The email a new Calendly booking sends, in `lang` (its recipient's): the coach's "needs
/// attention" for a pending one, the invitee's confirmation otherwise.
fn announce(
    ctx: &Context<'_>,
    lang: Language,
    inv: &Invitee<'_>,
    client: Option<&ProvenClient>,
    outcome: &Outcome,
    details: &templates::SessionDetails<'_>,
) -> OutgoingEmail {
    if let Outcome::Pending(reason) = outcome {
        let when = locale::short_time(lang, inv.start, ctx.site.time_zone);
        return templates::booking_needs_attention(
            lang,
            &ctx.site.name,
            &ctx.site.coach_email,
            &format!("{} <{}>", inv.name, inv.email),
            &when,
            reason_in(lang, reason),
            &lang.page(ctx.base_url, "/admin"),
        );
    }
    let name = client.map_or(inv.name.as_str(), |c| c.1.as_str());
    templates::booking_confirmation(lang, &ctx.site.name, &inv.email, name, details)
}

/// `invitee.canceled` before its `invitee.created`: a cancelled booking that holds nothing, so
/// the late create is recognised and changes nothing.
pub async fn tombstone(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    inv: &Invitee<'_>,
    client_id: Option<&str>,
) -> Result<(), sqlx::Error> {
    let reference = store::CalendlyRef {
        cancel_url: None,
        reschedule_url: None,
        ..inv.reference()
    };
    let booking = store::NewBooking {
        id: &new_id(),
        client_id,
        start: inv.start,
        end: inv.end,
        status: BookingStatus::Cancelled,
        source: BookingSource::Calendly,
        holds_credit: false,
        credit_lot_id: None,
        notes: Some(inv.title()),
        meet_link: None,
        created_by: None,
        calendly: Some(reference),
        disowned_at: None,
    };
    store::insert(conn, &booking, ctx.now).await
}

/// A session the admin books by phone, already checked at the boundary.
pub struct PhoneBooking<'a> {
    pub client_id: &'a str,
    pub start: DateTime<Utc>,
    /// Any status but pending: a confirmed one uses a credit now.
    pub status: BookingStatus,
    pub meet_link: Option<&'a str>,
    pub notes: Option<&'a str>,
    /// The admin who books it.
    pub admin_id: &'a str,
}

/// Books a session by phone for a client with at least one available credit; a confirmed
/// one uses it now and the client gets the confirmation. Answers the new booking's id.
pub async fn by_phone(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    phone: &PhoneBooking<'_>,
) -> Result<(String, Mail), DomainError> {
    let available: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT a.available_credits FROM client_accounts a JOIN profiles p ON p.user_id = a.user_id
          WHERE a.user_id = $1 AND p.role = 'client'{}",
        ctx.backend.for_update()
    ))
    .bind(phone.client_id)
    .fetch_optional(&mut *conn)
    .await?;
    let available = available.ok_or(DomainError::NotFound("Client not found"))?;
    if available <= 0 {
        return Err(DomainError::Conflict("Insufficient Credits"));
    }
    let id = new_id();
    let debit = phone.status == BookingStatus::Confirmed;
    let mut lot = None;
    if debit {
        let reference = format!("booking:{id}");
        let done =
            credits::debit_for_booking(conn, ctx.backend, phone.client_id, &reference).await?;
        if done.applied != Applied::Yes {
            return Err(DomainError::Conflict("Insufficient Credits"));
        }
        lot = done.lot;
    }
    let end = phone.start + chrono::Duration::minutes(DEFAULT_MINUTES);
    let booking = store::NewBooking {
        id: &id,
        client_id: Some(phone.client_id),
        start: phone.start,
        end,
        status: phone.status,
        source: BookingSource::Phone,
        holds_credit: debit,
        credit_lot_id: lot.as_deref(),
        notes: phone.notes,
        meet_link: phone.meet_link,
        created_by: Some(phone.admin_id),
        calendly: None,
        disowned_at: None,
    };
    store::insert(conn, &booking, ctx.now).await?;
    let mut mail = Vec::new();
    if debit {
        let title = phone.notes.unwrap_or(DEFAULT_TITLE);
        let details = ctx.details(&id, title, phone.start, end, phone.meet_link);
        mail.extend(confirmation(conn, ctx, phone.client_id, &details).await?);
    }
    Ok((id, mail))
}

/// Uses one of `client_id`'s credits for a pending booking (`reference` makes a replay a
/// no-op) and, when it is used, makes the booking that client's, confirmed, with their
/// confirmation email. Nothing changes unless the answer is `Applied::Yes`.
pub async fn confirm_with_credit(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    booking: &Held,
    client_id: &str,
    reference: &str,
) -> Result<(Applied, Mail), sqlx::Error> {
    debug_assert_eq!(booking.status, BookingStatus::Pending);
    let debit = credits::debit_for_booking(conn, ctx.backend, client_id, reference).await?;
    if debit.applied != Applied::Yes {
        return Ok((debit.applied, Vec::new()));
    }
    store::set_confirmed(conn, &booking.id, client_id, debit.lot.as_deref()).await?;
    let mut mail = Vec::new();
    if let Some(mut details) = ctx.stored_details(booking) {
        store::load_invitation(conn, &mut details.invitation, &booking.id).await?;
        mail.extend(confirmation(conn, ctx, client_id, &details).await?);
    }
    Ok((Applied::Yes, mail))
}

/// The client's booking confirmation, in their language; none for a client without a profile.
async fn confirmation(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    client_id: &str,
    details: &templates::SessionDetails<'_>,
) -> Result<Option<OutgoingEmail>, sqlx::Error> {
    let Some((email, name)) = recipient(conn, client_id).await? else {
        return Ok(None);
    };
    let lang = language_of(conn, client_id).await?;
    Ok(Some(templates::booking_confirmation(
        lang,
        &ctx.site.name,
        &email,
        &name,
        details,
    )))
}
