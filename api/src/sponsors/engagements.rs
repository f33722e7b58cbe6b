//! An engagement: a sponsor buys credits for named executives (existing clients, or emails
//! invited to sign up) and a pool the admin splits later. The credits reach an executive's
//! account as lots of the engagement, through the ledger, once the engagement is released:
//! when its invoice is paid, or earlier "on credit" by the admin. Every write of
//! `engagements`, `engagement_members` and `engagement_moves` is here; each takes the caller's
//! transaction and locks the engagement first, so two changes to one engagement run one after
//! the other and its pool is never over-split.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::AnyConnection;

use super::records::{self, Sponsor};
use crate::domain::credits::{self, Applied, NewLot};
use crate::domain::validity::Validity;
use crate::domain::{Context, Email, FieldError, Mail, Money, new_id, ts};
use crate::email::sponsor_templates;

/// The most credits one engagement may hold.
pub const MAX_CREDITS: i64 = 1_000;

/// Who an executive is: an existing client, or an email invited to sign up.
#[derive(Debug, Clone)]
pub enum Who {
    Client(String),
    Invite(Email),
}

pub struct NewMember {
    pub who: Who,
    pub credits: i64,
}

/// A checked engagement, as the admin asked for it.
pub struct NewEngagement {
    pub sponsor_id: String,
    pub title: String,
    pub credits: i64,
    pub price: Money,
    pub validity_months: u32,
    pub starts_on: NaiveDate,
    pub due_days: i64,
    pub members: Vec<NewMember>,
}

/// Why an engagement change was refused (nothing was written).
#[derive(Debug)]
pub enum Refused {
    NotFound(&'static str),
    /// 409 with this message.
    Conflict(String),
    /// 422 naming the field.
    Field(FieldError),
    /// The database failed: nothing certain was written (the transaction is dropped).
    Db(sqlx::Error),
}

impl From<FieldError> for Refused {
    fn from(e: FieldError) -> Refused {
        Refused::Field(e)
    }
}

/// An engagement as stored.
#[derive(Debug, Clone, sqlx_macros::FromRow)]
pub struct Engagement {
    pub id: String,
    pub sponsor_id: String,
    pub title: String,
    pub credits: i64,
    pub price: i64,
    pub currency: String,
    pub validity_months: i64,
    pub starts_on: String,
    pub released_at: Option<String>,
    pub created_at: String,
}

const COLUMNS: &str = "id, sponsor_id, title, credits, price, currency, validity_months, starts_on, released_at, created_at";

/// One executive of an engagement.
#[derive(Debug, Clone, sqlx_macros::FromRow)]
pub struct Member {
    pub id: String,
    pub client_id: Option<String>,
    pub email: String,
    pub credits: i64,
    pub granted: i64,
    pub joined_at: Option<String>,
    /// The client's name, once joined.
    pub name: Option<String>,
}

pub async fn get(conn: &mut AnyConnection, id: &str) -> Result<Option<Engagement>, sqlx::Error> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM engagements WHERE id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The engagement `id`, locked until the caller's transaction ends.
async fn lock(
    ctx: &Context<'_>,
    conn: &mut AnyConnection,
    id: &str,
) -> Result<Engagement, Refused> {
    let found: Option<Engagement> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM engagements WHERE id = $1{}",
        ctx.backend.for_update()
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
    .map_err(sql)?;
    found.ok_or(Refused::NotFound("Engagement not found"))
}

pub async fn list(
    conn: &mut AnyConnection,
    sponsor_id: Option<&str>,
) -> Result<Vec<Engagement>, sqlx::Error> {
    let filter = if sponsor_id.is_some() {
        "WHERE sponsor_id = $1"
    } else {
        "WHERE $1 IS NULL"
    };
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM engagements {filter} ORDER BY created_at DESC, id"
    ))
    .bind(sponsor_id)
    .fetch_all(conn)
    .await
}

pub async fn members(
    conn: &mut AnyConnection,
    engagement_id: &str,
) -> Result<Vec<Member>, sqlx::Error> {
    sqlx::query_as(
        "SELECT m.id, m.client_id, m.email, m.credits, m.granted, m.joined_at, p.full_name AS name
           FROM engagement_members m LEFT JOIN profiles p ON p.user_id = m.client_id
          WHERE m.engagement_id = $1 ORDER BY m.created_at, m.email",
    )
    .bind(engagement_id)
    .fetch_all(conn)
    .await
}

/// The client `id`'s email, when it is a client's account.
async fn client_email(conn: &mut AnyConnection, id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT p.email FROM profiles p JOIN client_accounts a ON a.user_id = p.user_id
          WHERE p.user_id = $1 AND p.role = 'client'",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The account with this email whose address is confirmed, if any: an invite to it joins at
/// once.
async fn confirmed_account(
    conn: &mut AnyConnection,
    email: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT u.id FROM users u JOIN client_accounts a ON a.user_id = u.id
          WHERE LOWER(u.email) = LOWER($1) AND u.email_confirmed_at IS NOT NULL",
    )
    .bind(email)
    .fetch_optional(conn)
    .await
}

fn sql(e: sqlx::Error) -> Refused {
    Refused::Db(e)
}

/// Creates the engagement and its executives (the caller adds its invoice, `invoices::create`,
/// in the same transaction); invited executives without an account are emailed a sign-up link. Answers the engagement's id and the mail to queue.
pub async fn create(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    new: &NewEngagement,
    admin_id: &str,
) -> Result<(String, Mail), Refused> {
    let sponsor = records::lock(conn, ctx.backend, &new.sponsor_id)
        .await
        .map_err(sql)?
        .ok_or(Refused::NotFound("Sponsor not found"))?;
    if sponsor.archived_at.is_some() {
        return Err(Refused::Conflict("This sponsor is archived".into()));
    }
    let given: i64 = new.members.iter().map(|m| m.credits).sum();
    if given > new.credits {
        return Err(FieldError::new(
            "members",
            "The executives' credits add up to more than the engagement's",
        )
        .into());
    }
    let id = new_id();
    sqlx::query(
        "INSERT INTO engagements (id, sponsor_id, title, credits, price, currency, validity_months, starts_on, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(&id)
    .bind(&sponsor.id)
    .bind(&new.title)
    .bind(new.credits)
    .bind(new.price.minor())
    .bind(&ctx.site.currency)
    .bind(i64::from(new.validity_months))
    .bind(new.starts_on.to_string())
    .bind(admin_id)
    .bind(ts(ctx.now))
    .execute(&mut *conn)
    .await
    .map_err(sql)?;
    let engagement = get(conn, &id).await.map_err(sql)?.expect("just inserted");
    let mut mail = Vec::new();
    for m in &new.members {
        mail.extend(add_member(conn, ctx, &sponsor, &engagement, &m.who, m.credits).await?);
    }
    Ok((id, mail))
}

/// Gives `credits` to `who` (a new or an existing member): granted at once when the
/// engagement is released and the executive has joined; an invited email without an account
/// is sent the sign-up link.
async fn add_member(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    sponsor: &Sponsor,
    engagement: &Engagement,
    who: &Who,
    credits: i64,
) -> Result<Mail, Refused> {
    let (client_id, email) = match who {
        Who::Client(id) => {
            let email = client_email(conn, id).await.map_err(sql)?.ok_or_else(|| {
                Refused::Field(FieldError::new("members", "This client does not exist"))
            })?;
            (Some(id.clone()), email)
        }
        Who::Invite(email) => (
            confirmed_account(conn, email.as_str()).await.map_err(sql)?,
            email.as_str().to_lowercase(),
        ),
    };
    let existing: Option<String> = sqlx::query_scalar(
        "SELECT id FROM engagement_members WHERE engagement_id = $1 AND LOWER(email) = LOWER($2)",
    )
    .bind(&engagement.id)
    .bind(&email)
    .fetch_optional(&mut *conn)
    .await
    .map_err(sql)?;
    let inserted = existing.is_none();
    let member_id = match existing {
        Some(id) => {
            sqlx::query("UPDATE engagement_members SET credits = credits + $1 WHERE id = $2")
                .bind(credits)
                .bind(&id)
                .execute(&mut *conn)
                .await
                .map_err(sql)?;
            id
        }
        None => {
            let id = new_id();
            sqlx::query(
                "INSERT INTO engagement_members (id, engagement_id, client_id, email, credits, joined_at, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&id)
            .bind(&engagement.id)
            .bind(&client_id)
            .bind(&email)
            .bind(credits)
            .bind(client_id.as_ref().map(|_| ts(ctx.now)))
            .bind(ts(ctx.now))
            .execute(&mut *conn)
            .await
            .map_err(sql)?;
            id
        }
    };
    let mut mail = Vec::new();
    if client_id.is_none() && inserted {
        let link = sponsor.language.page(
            ctx.base_url,
            &format!("/auth?mode=signup&email={}", urlencode(&email)),
        );
        mail.push(sponsor_templates::engagement_invitation(
            sponsor.language,
            &ctx.site.name,
            &email,
            &sponsor.name,
            &engagement.title,
            credits,
            &link,
        ));
    }
    if engagement.released_at.is_some() {
        grant_member(conn, ctx, engagement, &sponsor.name, &member_id).await?;
    }
    Ok(mail)
}

fn urlencode(s: &str) -> String {
    let mut url = reqwest::Url::parse("http://x.invalid/").expect("a valid URL");
    url.query_pairs_mut().append_pair("v", s);
    url.query().unwrap_or("v=")[2..].to_string()
}

/// When an engagement's lots expire: `validity_months` after its start date, or after today
/// when it starts in the past.
fn validity_of(ctx: &Context<'_>, engagement: &Engagement) -> Validity {
    let start = NaiveDate::parse_from_str(&engagement.starts_on, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(12, 0, 0))
        .map(|d| d.and_utc())
        .filter(|d| *d > ctx.now)
        .unwrap_or(ctx.now);
    let months = u32::try_from(engagement.validity_months).unwrap_or(12);
    Validity::months_from(start, months, ctx.site.time_zone)
}

/// Grants a joined member what they have not received yet, as one lot of the engagement.
async fn grant_member(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    engagement: &Engagement,
    sponsor_name: &str,
    member_id: &str,
) -> Result<(), Refused> {
    let member: Option<(Option<String>, i64, i64)> =
        sqlx::query_as("SELECT client_id, credits, granted FROM engagement_members WHERE id = $1")
            .bind(member_id)
            .fetch_optional(&mut *conn)
            .await
            .map_err(sql)?;
    let Some((Some(client_id), credits, granted)) = member else {
        return Ok(());
    };
    let delta = credits - granted;
    if delta <= 0 {
        return Ok(());
    }
    let lot_id = new_id();
    let validity = validity_of(ctx, engagement);
    let lot = NewLot {
        id: &lot_id,
        validity: &validity,
        payment_record_id: None,
        engagement_id: Some(&engagement.id),
    };
    // The reference names the member and how much they had: a replay grants nothing.
    let external_ref = format!("engagement:{member_id}:{granted}");
    let note = format!("{} ({sponsor_name})", engagement.title);
    let applied = credits::grant_engagement(
        conn,
        ctx.backend,
        &client_id,
        delta,
        &external_ref,
        &note,
        &lot,
    )
    .await
    .map_err(sql)?;
    if matches!(applied, Applied::Yes | Applied::AlreadyApplied) {
        sqlx::query("UPDATE engagement_members SET granted = $1 WHERE id = $2")
            .bind(credits)
            .bind(member_id)
            .execute(&mut *conn)
            .await
            .map_err(sql)?;
    }
    Ok(())
}

/// Sends the engagement's credits to its executives now (the invoice paid, or the admin's
/// "on credit"). `Ok(false)` when they were released already.
pub async fn release(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    engagement_id: &str,
) -> Result<bool, Refused> {
    let engagement = lock(ctx, conn, engagement_id).await?;
    if engagement.released_at.is_some() {
        return Ok(false);
    }
    sqlx::query("UPDATE engagements SET released_at = $1 WHERE id = $2")
        .bind(ts(ctx.now))
        .bind(engagement_id)
        .execute(&mut *conn)
        .await
        .map_err(sql)?;
    let engagement = Engagement {
        released_at: Some(ts(ctx.now)),
        ..engagement
    };
    let sponsor = records::get(conn, &engagement.sponsor_id)
        .await
        .map_err(sql)?
        .ok_or(Refused::NotFound("Sponsor not found"))?;
    for m in members(conn, engagement_id).await.map_err(sql)? {
        grant_member(conn, ctx, &engagement, &sponsor.name, &m.id).await?;
    }
    Ok(true)
}

/// Gives `credits` of the pool to `who`.
pub async fn allocate(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    engagement_id: &str,
    who: &Who,
    credits: i64,
) -> Result<Mail, Refused> {
    let engagement = lock(ctx, conn, engagement_id).await?;
    let given: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(credits), 0) AS BIGINT) FROM engagement_members WHERE engagement_id = $1",
    )
    .bind(engagement_id)
    .fetch_one(&mut *conn)
    .await
    .map_err(sql)?;
    let pool = engagement.credits - given;
    if credits > pool {
        return Err(FieldError::new(
            "credits",
            &format!("Only {pool} credits are left in the pool"),
        )
        .into());
    }
    let sponsor = records::get(conn, &engagement.sponsor_id)
        .await
        .map_err(sql)?
        .ok_or(Refused::NotFound("Sponsor not found"))?;
    add_member(conn, ctx, &sponsor, &engagement, who, credits).await
}

/// A move of unused engagement credits between two of its executives.
pub struct Move<'a> {
    pub from_client: &'a str,
    pub to_client: &'a str,
    pub credits: i64,
    pub reason: &'a str,
    pub admin_id: &'a str,
}

/// Moves unused credits of the engagement from one executive to another: before release,
/// their shares; after, their lots (taken from the giver's engagement lots that expire first,
/// given as a lot lasting until the earliest of them), each side a ledger row with the reason.
pub async fn move_credits(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    engagement_id: &str,
    mv: &Move<'_>,
) -> Result<(), Refused> {
    let engagement = lock(ctx, conn, engagement_id).await?;
    let all = members(conn, engagement_id).await.map_err(sql)?;
    let find = |id: &str| {
        all.iter()
            .find(|m| m.client_id.as_deref() == Some(id))
            .cloned()
    };
    let from = find(mv.from_client).ok_or_else(|| {
        Refused::Field(FieldError::new(
            "fromClientId",
            "This client is not in the engagement",
        ))
    })?;
    let to = find(mv.to_client).ok_or_else(|| {
        Refused::Field(FieldError::new(
            "toClientId",
            "This client is not in the engagement",
        ))
    })?;
    if from.id == to.id {
        return Err(FieldError::new(
            "toClientId",
            "Choose another executive to move the credits to",
        )
        .into());
    }
    let name = from.name.clone().unwrap_or_else(|| from.email.clone());
    let lots = live_lots(conn, ctx.now, engagement_id, mv.from_client)
        .await
        .map_err(sql)?;
    let movable = if engagement.released_at.is_some() {
        lots.iter().map(|(_, r, _)| r).sum::<i64>()
    } else {
        from.credits
    };
    if mv.credits > movable {
        return Err(FieldError::new(
            "credits",
            &format!("{name} has only {movable} unused credits from this engagement"),
        )
        .into());
    }
    let move_id = new_id();
    if engagement.released_at.is_some() {
        move_lots(conn, ctx, &engagement, mv, &move_id, &lots).await?;
    }
    let released = i64::from(engagement.released_at.is_some());
    for (member, sign) in [(&from.id, -1), (&to.id, 1)] {
        sqlx::query(
            "UPDATE engagement_members SET credits = credits + $1, granted = granted + $2 WHERE id = $3",
        )
        .bind(sign * mv.credits)
        .bind(sign * mv.credits * released)
        .bind(member)
        .execute(&mut *conn)
        .await
        .map_err(sql)?;
    }
    sqlx::query(
        "INSERT INTO engagement_moves (id, engagement_id, from_client, to_client, credits, reason, moved_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&move_id)
    .bind(engagement_id)
    .bind(mv.from_client)
    .bind(mv.to_client)
    .bind(mv.credits)
    .bind(mv.reason)
    .bind(mv.admin_id)
    .bind(ts(ctx.now))
    .execute(&mut *conn)
    .await
    .map_err(sql)?;
    Ok(())
}

/// The client's live lots of the engagement with unused credits, first to expire first:
/// (lot, remaining, expires_on).
async fn live_lots(
    conn: &mut AnyConnection,
    now: DateTime<Utc>,
    engagement_id: &str,
    client_id: &str,
) -> Result<Vec<(String, i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, remaining, expires_on FROM credit_lots
          WHERE engagement_id = $1 AND user_id = $2 AND expired_at IS NULL AND expires_at > $3 AND remaining > 0
          ORDER BY expires_at, created_at, id",
    )
    .bind(engagement_id)
    .bind(client_id)
    .bind(ts(now))
    .fetch_all(conn)
    .await
}

/// The ledger side of a move after release.
async fn move_lots(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    engagement: &Engagement,
    mv: &Move<'_>,
    move_id: &str,
    lots: &[(String, i64, String)],
) -> Result<(), Refused> {
    let mut left = mv.credits;
    let mut last_day: Option<NaiveDate> = None;
    for (lot, remaining, expires_on) in lots {
        if left == 0 {
            break;
        }
        let take = left.min(*remaining);
        let applied = credits::move_engagement(
            conn,
            ctx.backend,
            mv.from_client,
            -take,
            &format!("engagement-move:{move_id}:out:{lot}"),
            mv.reason,
            Ok(lot),
        )
        .await
        .map_err(sql)?;
        if applied != Applied::Yes {
            return Err(Refused::Conflict(format!(
                "The credits could not be taken from the executive's account ({applied:?})"
            )));
        }
        let day = NaiveDate::parse_from_str(expires_on, "%Y-%m-%d").ok();
        last_day = match (last_day, day) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        left -= take;
    }
    let validity = match last_day {
        Some(day) => Validity::through(day, ctx.site.time_zone),
        None => validity_of(ctx, engagement),
    };
    let lot_id = new_id();
    let lot = NewLot {
        id: &lot_id,
        validity: &validity,
        payment_record_id: None,
        engagement_id: Some(&engagement.id),
    };
    let applied = credits::move_engagement(
        conn,
        ctx.backend,
        mv.to_client,
        mv.credits,
        &format!("engagement-move:{move_id}:in"),
        mv.reason,
        Err(&lot),
    )
    .await
    .map_err(sql)?;
    if applied != Applied::Yes {
        return Err(Refused::Conflict(format!(
            "The credits could not be given to the executive ({applied:?})"
        )));
    }
    Ok(())
}

/// A client whose address is now confirmed joins the engagements that invited their email;
/// those already released grant their credits at once.
pub async fn join_invited(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    let invited: Vec<(String, String)> = sqlx::query_as(
        "SELECT m.id, m.engagement_id FROM engagement_members m JOIN users u ON LOWER(u.email) = LOWER(m.email)
          WHERE u.id = $1 AND m.client_id IS NULL",
    )
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    for (member_id, engagement_id) in invited {
        sqlx::query(
            "UPDATE engagement_members SET client_id = $1, joined_at = $2 WHERE id = $3 AND client_id IS NULL",
        )
        .bind(user_id)
        .bind(ts(ctx.now))
        .bind(&member_id)
        .execute(&mut *conn)
        .await?;
        let Some(engagement) = get(conn, &engagement_id).await? else {
            continue;
        };
        if engagement.released_at.is_some() {
            let sponsor = records::get(conn, &engagement.sponsor_id).await?;
            let name = sponsor.map(|s| s.name).unwrap_or_default();
            match grant_member(conn, ctx, &engagement, &name, &member_id).await {
                Ok(()) => {}
                Err(Refused::Db(e)) => return Err(e),
                Err(e) => tracing::error!(
                    ?e,
                    "an invited executive joined but their credits were not granted"
                ),
            }
        }
    }
    Ok(())
}

/// What one executive has of an engagement: credits granted, used by bookings, unused.
#[derive(Debug, Clone, Default, sqlx_macros::FromRow)]
pub struct Usage {
    pub client_id: String,
    pub engagement_id: String,
    pub used: i64,
    pub remaining: i64,
}

/// The usage of every executive of every engagement (used: credits their bookings took
/// from the engagement's lots, net of cancellations; remaining: unused in live lots).
pub async fn usage(
    conn: &mut AnyConnection,
    now: DateTime<Utc>,
) -> Result<Vec<Usage>, sqlx::Error> {
    sqlx::query_as(
        "SELECT k.user_id AS client_id, k.engagement_id,
                CAST(COALESCE(SUM(CASE WHEN l.kind IN ('booking_debit', 'booking_refund') THEN -m.delta ELSE 0 END), 0) AS BIGINT) AS used,
                CAST(COALESCE((SELECT SUM(r.remaining) FROM credit_lots r
                                WHERE r.user_id = k.user_id AND r.engagement_id = k.engagement_id
                                  AND r.expired_at IS NULL AND r.expires_at > $1), 0) AS BIGINT) AS remaining
           FROM credit_lots k
           LEFT JOIN credit_lot_moves m ON m.lot_id = k.id
           LEFT JOIN credit_ledger l ON l.id = m.ledger_id
          WHERE k.engagement_id IS NOT NULL
          GROUP BY k.user_id, k.engagement_id",
    )
    .bind(ts(now))
    .fetch_all(conn)
    .await
}

/// An engagement whose lots do not add up: its members' granted credits differ from its lots'
/// granted credits less the credits moved between its executives.
#[derive(Debug, Clone, PartialEq, Eq, sqlx_macros::FromRow)]
pub struct EngagementMismatch {
    pub engagement_id: String,
    pub members_granted: i64,
    pub lots_granted: i64,
    pub moved: i64,
}

/// `api ledger verify`'s engagement check: every engagement's credits equal the lots it
/// created (less the moves between its executives, which are lots too), and no engagement
/// granted more than it holds.
pub async fn verify(pool: &sqlx::AnyPool) -> Result<Vec<EngagementMismatch>, sqlx::Error> {
    sqlx::query_as(
        "SELECT e.id AS engagement_id,
                CAST(COALESCE((SELECT SUM(m.granted) FROM engagement_members m WHERE m.engagement_id = e.id), 0) AS BIGINT) AS members_granted,
                CAST(COALESCE((SELECT SUM(k.granted) FROM credit_lots k WHERE k.engagement_id = e.id), 0) AS BIGINT) AS lots_granted,
                CAST(COALESCE((SELECT SUM(v.credits) FROM engagement_moves v WHERE v.engagement_id = e.id AND e.released_at IS NOT NULL
                                  AND v.created_at >= e.released_at), 0) AS BIGINT) AS moved
           FROM engagements e
          WHERE CAST(COALESCE((SELECT SUM(m.granted) FROM engagement_members m WHERE m.engagement_id = e.id), 0) AS BIGINT)
                <> CAST(COALESCE((SELECT SUM(k.granted) FROM credit_lots k WHERE k.engagement_id = e.id), 0) AS BIGINT)
                 - CAST(COALESCE((SELECT SUM(v.credits) FROM engagement_moves v WHERE v.engagement_id = e.id AND e.released_at IS NOT NULL
                                  AND v.created_at >= e.released_at), 0) AS BIGINT)
             OR CAST(COALESCE((SELECT SUM(m.credits) FROM engagement_members m WHERE m.engagement_id = e.id), 0) AS BIGINT) > e.credits
          ORDER BY e.id",
    )
    .fetch_all(pool)
    .await
}
