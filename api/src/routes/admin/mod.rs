//! The admin dashboard's API (spec §2 /admin, §3, §5; the status page of issue 24), one module
//! per resource. Every route
//! takes `AdminUser` (401 signed out, 403 for a client).

mod bookings;
mod client_page;
mod clients;
mod common;
pub mod content;
mod discounts;
mod exports;
mod lots;
mod payments;
mod sponsors;
mod stats;
mod system;
mod transfers;
mod users;
mod waive;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use bookings::{AdminBookingView, AssignBooking, PhoneBooking, SessionFilter};
pub use clients::{ClientRow, ClientSearch};
pub use discounts::DiscountCodeView;
pub use lots::{ExtendLot, LotView, RefundPayment};
pub use payments::{AddPayment, RecordedPaymentView};
pub(crate) use sponsors::invoice_view;
pub use sponsors::{EngagementView, InvoiceView, SponsorView};
pub use stats::Stats;
pub use users::{CreateUser, CreatedUser};

use crate::state::AppState;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`, for the
/// router and the OpenAPI document alike.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(stats::stats))
        .merge(
            // Images of up to 10 MB, base64-encoded (the whole-body reader allows it too).
            OpenApiRouter::new()
                .routes(routes!(content::proxy))
                .routes(routes!(content::preview))
                .layer(axum::extract::DefaultBodyLimit::max(
                    crate::content_editor::BODY_LIMIT,
                )),
        )
        .routes(routes!(content::status))
        .routes(routes!(content::config))
        .routes(routes!(clients::clients))
        .routes(routes!(
            client_page::client_detail,
            client_page::edit_profile
        ))
        .routes(routes!(client_page::adjust_credits))
        .routes(routes!(client_page::deactivate))
        .routes(routes!(client_page::reactivate))
        .routes(routes!(exports::payments_csv))
        .routes(routes!(users::create_user))
        .routes(routes!(payments::add_payment))
        .routes(routes!(bookings::phone_booking))
        .routes(routes!(bookings::recent_bookings))
        .routes(routes!(bookings::needs_attention))
        .routes(routes!(bookings::assign_booking))
        .routes(routes!(bookings::cancel_booking))
        .routes(routes!(bookings::mark_no_show))
        .routes(routes!(bookings::sessions))
        .routes(routes!(lots::client_lots))
        .routes(routes!(lots::extend_lot))
        .routes(routes!(lots::refundable, lots::refund_payment))
        .routes(routes!(waive::waive_late_cancellation))
        .routes(routes!(transfers::pending_transfers))
        .routes(routes!(transfers::confirm_transfer))
        .routes(routes!(transfers::reject_transfer))
        .routes(routes!(discounts::list_codes, discounts::create_code))
        .routes(routes!(sponsors::list_sponsors, sponsors::create_sponsor))
        .routes(routes!(sponsors::edit_sponsor))
        .routes(routes!(sponsors::archive_sponsor))
        .routes(routes!(
            sponsors::list_engagements,
            sponsors::create_engagement
        ))
        .routes(routes!(sponsors::engagement))
        .routes(routes!(sponsors::release_engagement))
        .routes(routes!(sponsors::allocate))
        .routes(routes!(sponsors::move_credits))
        .routes(routes!(sponsors::send_invoice))
        .routes(routes!(sponsors::void_invoice))
        .routes(routes!(sponsors::mark_invoice_paid))
        .routes(routes!(
            sponsors::create_report_link,
            sponsors::report_links
        ))
        .routes(routes!(sponsors::revoke_report_link))
        .routes(routes!(discounts::deactivate_code))
        .routes(routes!(discounts::activate_code))
        .routes(routes!(system::system))
        .routes(routes!(system::retry_email))
        .routes(routes!(system::verify_ledger))
        .routes(routes!(system::run_doctor))
}
