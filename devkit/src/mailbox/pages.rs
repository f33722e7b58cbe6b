//! The mailbox's pages: the list of messages, newest first, and each message's text with its
//! links made clickable.

use std::path::PathBuf;
use std::sync::Arc;

use api::email::templates::escape;
use api::email::transport::Queued;
use api::error::{AppError, AppResult};
use axum::Router;
use axum::extract::{Path, State};
use axum::response::Html;
use axum::routing::get;

/// The pages at /api/dev/mailbox for the messages in `dir`.
pub fn router(dir: PathBuf) -> Router {
    Router::new()
        .route("/api/dev/mailbox", get(list))
        .route("/api/dev/mailbox/{name}", get(show))
        .with_state(Arc::new(dir))
}

async fn read_all(dir: &std::path::Path) -> Vec<(String, Queued)> {
    let mut out = Vec::new();
    let Ok(mut dir) = tokio::fs::read_dir(dir).await else {
        return out;
    };
    while let Ok(Some(entry)) = dir.next_entry().await {
        let name = entry.file_name().to_string_lossy().to_string();
        if let Some(stem) = name.strip_suffix(".json")
            && let Ok(bytes) = tokio::fs::read(entry.path()).await
            && let Ok(mail) = serde_json::from_slice::<Queued>(&bytes)
        {
            out.push((stem.to_string(), mail));
        }
    }
    out.sort_by(|a, b| b.0.cmp(&a.0));
    out
}

/// Makes `http(s)://…` in escaped text clickable.
fn linkify(escaped: &str) -> String {
    escaped
        .split_inclusive(char::is_whitespace)
        .map(|w| {
            let t = w.trim_end();
            if t.starts_with("http://") || t.starts_with("https://") {
                format!("<a href=\"{t}\">{t}</a>{}", &w[t.len()..])
            } else {
                w.to_string()
            }
        })
        .collect()
}

async fn list(State(dir): State<Arc<PathBuf>>) -> Html<String> {
    let rows: String = read_all(&dir)
        .await
        .iter()
        .map(|(stem, m)| {
            format!(
                "<tr><td>{}</td><td>{}</td><td><a href=\"/api/dev/mailbox/{}\">{}</a></td></tr>",
                escape(&m.created_at),
                escape(&m.to),
                escape(stem),
                escape(&m.subject)
            )
        })
        .collect();
    Html(format!(
        "<!doctype html><meta charset=utf-8><title>Local mailbox</title><body style=\"font-family:system-ui;margin:2rem\">\
<h1>Local mailbox</h1><p>Development only: mail that would have been sent.</p>\
<table cellpadding=6><tr><th>When</th><th>To</th><th>Subject</th></tr>{rows}</table>"
    ))
}

async fn show(
    State(dir): State<Arc<PathBuf>>,
    Path(name): Path<String>,
) -> AppResult<Html<String>> {
    let (_, mail) = read_all(&dir)
        .await
        .into_iter()
        .find(|(stem, _)| *stem == name)
        .ok_or_else(|| AppError::NotFound("No such message".into()))?;
    Ok(Html(format!(
        "<!doctype html><meta charset=utf-8><title>{s}</title><body style=\"font-family:system-ui;margin:2rem\">\
<p><a href=\"/api/dev/mailbox\">← Mailbox</a></p><h1>{s}</h1><p>To: {to}</p><pre style=\"white-space:pre-wrap\">{body}</pre>",
        s = escape(&mail.subject),
        to = escape(&mail.to),
        body = linkify(&escape(&mail.text))
    )))
}
