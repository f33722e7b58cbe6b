//! The local mailbox: without an SMTP server, `devserver` keeps every email in a folder
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn mail_kept_in_the_folder_is_listed_and_shown_with_clickable_links() {
        let dir = tempfile::tempdir().unwrap();
        let mailbox = MailboxTransport::new(dir.path().join("mailbox")).unwrap();
        let mail = Queued {
            id: "m1".into(),
            to: "mona@example.com".into(),
            reply_to: None,
            subject: "Confirm <your> email".into(),
            text: "Open http://127.0.0.1:8000/confirm?token=abc to confirm.".into(),
            html: "<p>Open the link</p>".into(),
            headers: vec![],
            attachments: vec![],
            created_at: "2026-01-02T03:04:05.000000Z".into(),
        };
        mailbox
            .send("Coach <no-reply@coach.example.com>", &mail)
            .await
            .unwrap();
        let stem = "2026-01-02T030405000000Z-m1";
        let eml = std::fs::read_to_string(mailbox.dir().join(format!("{stem}.eml"))).unwrap();
        assert!(eml.contains("To: mona@example.com"), "{eml}");

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = router(mailbox.dir().to_path_buf());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        let get = |path: String| async move {
            let response = reqwest::get(path).await.unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        };

        let (status, list) = get(format!("{base}/api/dev/mailbox")).await;
        assert_eq!(status, 200);
        assert!(
            list.contains(&format!(
                "href=\"/api/dev/mailbox/{stem}\">Confirm &lt;your&gt; email</a>"
            )),
            "{list}"
        );
        let (status, page) = get(format!("{base}/api/dev/mailbox/{stem}")).await;
        assert_eq!(status, 200);
        assert!(
            page.contains("<a href=\"http://127.0.0.1:8000/confirm?token=abc\">"),
            "{page}"
        );
        let (status, missing) = get(format!("{base}/api/dev/mailbox/nope")).await;
        assert_eq!(status, 404);
        assert!(missing.contains("\"error\""), "{missing}");
    }
}
