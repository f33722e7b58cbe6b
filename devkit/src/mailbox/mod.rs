//! The local mailbox: without an SMTP server, `site serve` keeps every email in a folder
//! (`data/mailbox`, or MAILBOX_DIR) as the `.eml` an SMTP server would have received and a
//! `.json` that the pages at /api/dev/mailbox list, so confirmation and reset links can be
//! clicked on a laptop.

mod pages;

use std::path::{Path, PathBuf};

use anyhow::Context;
use api::email::transport::{MailTransport, Queued, SendFuture, format_message};

pub use pages::router;

/// A mail transport that writes to a folder instead of sending.
pub struct MailboxTransport {
    dir: PathBuf,
}

impl MailboxTransport {
    /// Creates `dir` if needed.
    pub fn new(dir: impl Into<PathBuf>) -> anyhow::Result<MailboxTransport> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(MailboxTransport { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl MailTransport for MailboxTransport {
    fn send<'a>(&'a self, from: &'a str, mail: &'a Queued) -> SendFuture<'a> {
        Box::pin(async move {
            let message = format_message(from, mail)?;
            let stem = format!("{}-{}", mail.created_at.replace([':', '.'], ""), mail.id);
            tokio::fs::write(self.dir.join(format!("{stem}.eml")), message).await?;
            tokio::fs::write(
                self.dir.join(format!("{stem}.json")),
                serde_json::to_vec_pretty(mail)?,
            )
            .await?;
            Ok(())
        })
    }
}
