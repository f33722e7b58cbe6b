//! One kept-alive connection carries every request (issue 20, defects 5 and 7): an answer
//! given before the body was read (401, the Origin check's 403, a route that ignores its body)
//! must not lose the next request on the same connection, as a proxy that keeps connections
//! to the API alive sends it; and a body that is not an object is refused as the OpenAPI
//! document says.

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::support::{error_of, spawn_app};

/// One HTTP/1.1 exchange on a kept-alive connection: the status, or `None` when the
/// connection closed without an answer. `closes` says whether the answer said
/// `Connection: close`.
async fn exchange(
    conn: &mut BufReader<TcpStream>,
    host: &str,
    path: &str,
    origin: Option<&str>,
    body: &str,
) -> Option<(u16, bool)> {
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    // The body arrives in two parts, as a proxy forwards a body it is still receiving: an
    // answer ready before the second part must not leave it on the connection.
    let (head, tail) = request.split_at(request.len() - body.len() / 2);
    conn.get_mut().write_all(head.as_bytes()).await.ok()?;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    conn.get_mut().write_all(tail.as_bytes()).await.ok()?;
    let mut status_line = String::new();
    if conn.read_line(&mut status_line).await.ok()? == 0 {
        return None;
    }
    let status: u16 = status_line.split(' ').nth(1)?.parse().ok()?;
    let (mut length, mut closes) = (0usize, false);
    loop {
        let mut line = String::new();
        conn.read_line(&mut line).await.ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "connection" => closes = value.trim().eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    let mut rest = vec![0; length];
    conn.read_exact(&mut rest).await.ok()?;
    Some((status, closes))
}

#[tokio::test]
async fn answers_given_before_the_body_was_read_lose_no_request_on_a_kept_alive_connection() {
    let app = spawn_app().await;
    let host = app.base.trim_start_matches("http://").to_string();
    let origin = app.base.clone();
    // What answers before reading its body, each followed by a request that must be answered.
    let first: [(&str, Option<&str>, &str); 3] = [
        ("/api/auth/confirm/resend", Some(&origin), "{}"),
        (
            "/api/auth/password-reset",
            None,
            r#"{"email":"x@example.com"}"#,
        ),
        ("/api/newsletter/unsubscribe", None, r#"{"token":"nope"}"#),
    ];
    let padding = "x".repeat(2_000);
    for (path, first_origin, body) in first {
        let mut conn = BufReader::new(TcpStream::connect(&host).await.unwrap());
        // Larger than one read, so part of it is still unread when the answer is ready.
        let body = body.replacen('}', &format!(r#","pad":"{padding}"}}"#), 1);
        let mut answered = 0;
        for i in 0..40 {
            let Some((status, closes)) =
                exchange(&mut conn, &host, path, first_origin, &body).await
            else {
                panic!("{path}: exchange {i}: the connection closed without an answer");
            };
            assert!(status < 500, "{path}: {status}");
            if closes {
                conn = BufReader::new(TcpStream::connect(&host).await.unwrap());
            }
            let next = exchange(
                &mut conn,
                &host,
                "/api/auth/password-reset",
                Some(&origin),
                r#"{"email":"mona@example.com"}"#,
            )
            .await;
            let Some((status, closes)) = next else {
                panic!("{path}: the request after exchange {i} got no answer");
            };
            assert!(status == 202 || status == 429, "{path}: {status}");
            answered += 1;
            if closes {
                conn = BufReader::new(TcpStream::connect(&host).await.unwrap());
            }
        }
        assert_eq!(answered, 40);
    }
}

#[tokio::test]
async fn a_body_that_is_not_an_object_is_refused() {
    let app = spawn_app().await;
    let c = crate::support::new_client();
    assert_eq!(app.sign_up(&c, "mona@example.com").await.status(), 201);
    for body in [json!([]), json!([1, 2]), json!("x"), json!(1), json!(null)] {
        let (status, e) = error_of(
            app.post_as(&c, "/api/auth/confirm/resend", body.clone())
                .await,
        )
        .await;
        assert_eq!(status, 400, "{body}: {e}");
        let (status, _) = error_of(
            app.post_as(
                &c,
                "/api/auth/sign-in",
                json!(["mona@example.com", "nile-sunrise-42"]),
            )
            .await,
        )
        .await;
        assert_eq!(status, 400, "a sign-in by position");
    }
    let r = app.post_as(&c, "/api/auth/confirm/resend", json!({})).await;
    assert_eq!(r.status(), 202);
}
