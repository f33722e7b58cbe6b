//! Development code that never ships in the `api` binary: a local PayTabs (`paytabs`), Paymob
//! (`paymob`) and Calendly (`calendly`) that send the same signed callbacks and webhooks as the real services,
//! the mailbox that keeps mail when no SMTP server is set (`mailbox`), and the local defaults
//! and demo accounts of `devserver` (`local`).
//!
//! It plugs into the API only through `api::startup::Extensions` ([`DevKit::extensions`]):
//! `devserver` and the API's integration tests depend on
//! this crate; the `api` crate itself never does.

pub mod calendly;
mod guard;
pub mod local;
pub mod mailbox;
pub mod paymob;
pub mod paytabs;

use std::sync::Arc;

use api::startup::Extensions;

/// The development parts one API runs with; each is optional.
#[derive(Clone, Default)]
pub struct DevKit {
    /// Served at /paytabs-standin.
    pub paytabs: Option<Arc<paytabs::StandIn>>,
    /// Served at /paymob-standin.
    pub paymob: Option<Arc<paymob::StandIn>>,
    /// Served at /calendly-standin.
    pub calendly: Option<Arc<calendly::CalendlyStandIn>>,
    /// Takes the mail, listed at /api/dev/mailbox.
    pub mailbox: Option<Arc<mailbox::MailboxTransport>>,
}

impl DevKit {
    /// What the API must be built with to serve these parts: their routes beside its own (as
    /// separate hosts would be, outside its middleware), and the mailbox as its mail transport.
    pub fn extensions(&self) -> Extensions {
        let mut extensions = Extensions::new();
        if let Some(standin) = &self.paytabs {
            extensions = extensions.merge(paytabs::router(standin.clone()));
        }
        if let Some(standin) = &self.paymob {
            extensions = extensions.merge(paymob::router(standin.clone()));
        }
        if let Some(standin) = &self.calendly {
            extensions = extensions.merge(calendly::router(standin.clone()));
        }
        if let Some(mailbox) = &self.mailbox {
            extensions = extensions
                .merge(mailbox::router(mailbox.dir().to_path_buf()))
                .mail_transport(mailbox.clone());
        }
        extensions
    }
}
