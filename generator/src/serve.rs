//! `site serve`: serves the built site on localhost the way Netlify serves it in production —
//! clean URLs (`/about` → `about/index.html`), the `[[redirects]]` of `netlify.toml` applied
//! only when no file matches, and `404.html` for anything else.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

use anyhow::Context;
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct Redirect {
    pub from: String,
    pub to: String,
    #[serde(default = "default_status")]
    pub status: u16,
}

fn default_status() -> u16 {
    301
}

#[derive(Debug, Clone, Deserialize)]
pub struct HeaderRule {
    #[serde(rename = "for")]
    pub path: String,
    #[serde(default)]
    pub values: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct NetlifyToml {
    #[serde(default)]
    pub redirects: Vec<Redirect>,
    #[serde(default)]
    pub headers: Vec<HeaderRule>,
}

impl NetlifyToml {
    pub fn load(netlify_toml: &Path) -> anyhow::Result<NetlifyToml> {
        let text = std::fs::read_to_string(netlify_toml)
            .with_context(|| format!("cannot read {}", netlify_toml.display()))?;
        toml::from_str(&text).with_context(|| format!("{} is not valid", netlify_toml.display()))
    }

    /// The headers netlify.toml gives `path`, later rules overriding earlier ones.
    pub fn headers_for(&self, path: &str) -> Vec<(String, String)> {
        let mut out: std::collections::BTreeMap<String, String> = Default::default();
        for rule in self.headers.iter().filter(|r| matches(&r.path, path)) {
            out.extend(rule.values.clone());
        }
        out.into_iter().collect()
    }

    /// Locally the stand-ins (the scheduler in /book-session's frame) live on the API's own
    /// origin, so the CSP must let that origin be framed.
    pub fn allow_frames_from(&mut self, origin: &str) {
        for rule in &mut self.headers {
            if let Some(csp) = rule.values.get_mut("Content-Security-Policy") {
                *csp = csp.replace("frame-src ", &format!("frame-src {origin} "));
            }
        }
    }
}

/// The redirect rules of `netlify.toml`, the one source of truth for production and local runs.
pub fn load_redirects(netlify_toml: &Path) -> anyhow::Result<Vec<Redirect>> {
    let text = std::fs::read_to_string(netlify_toml)
        .with_context(|| format!("cannot read {}", netlify_toml.display()))?;
    let parsed: NetlifyToml = toml::from_str(&text)
        .with_context(|| format!("{} is not valid", netlify_toml.display()))?;
    Ok(parsed.redirects)
}

/// What a request resolves to.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolved {
    File { path: PathBuf, status: u16 },
    Redirect { location: String, status: u16 },
}

fn matches(pattern: &str, path: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => path.starts_with(prefix),
        None => pattern.trim_end_matches('/') == path.trim_end_matches('/'),
    }
}

/// The file for a site path: the file itself, `<path>/index.html` or `<path>.html`.
fn find_file(root: &Path, url_path: &str) -> Option<PathBuf> {
    let rel = Path::new(url_path.trim_start_matches('/'));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None; // no `..`, no absolute paths
    }
    let base = root.join(rel);
    [
        base.clone(),
        base.join("index.html"),
        base.with_extension("html"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

pub fn resolve(root: &Path, redirects: &[Redirect], url_path: &str) -> Resolved {
    if let Some(path) = find_file(root, url_path) {
        return Resolved::File { path, status: 200 };
    }
    for r in redirects.iter().filter(|r| matches(&r.from, url_path)) {
        match r.status {
            301 | 302 | 303 | 307 | 308 => {
                return Resolved::Redirect {
                    location: r.to.clone(),
                    status: r.status,
                };
            }
            status => {
                if let Some(path) = find_file(root, &r.to) {
                    return Resolved::File { path, status };
                }
            }
        }
    }
    Resolved::File {
        path: root.join("404.html"),
        status: 404,
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "xml" => "application/xml; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..(i + 3).min(s.len())], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Forwards one request to the API (as Netlify's `/api/*` proxy does in production) and copies
/// the answer back. `Connection: close` keeps it to one exchange per connection.
fn proxy(
    stream: &mut TcpStream,
    reader: &mut BufReader<TcpStream>,
    api: &str,
    request_line: &str,
    headers: &[String],
) -> std::io::Result<()> {
    use std::io::Read;
    let mut upstream = TcpStream::connect(api)?;
    let mut head = request_line.to_string();
    let mut length = 0usize;
    for h in headers {
        let lower = h.to_ascii_lowercase();
        if lower.starts_with("connection:") {
            continue;
        }
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        head.push_str(h);
    }
    head.push_str("Connection: close\r\n\r\n");
    upstream.write_all(head.as_bytes())?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    upstream.write_all(&body)?;
    std::io::copy(&mut upstream, stream)?;
    Ok(())
}

fn handle(
    mut stream: TcpStream,
    root: &Path,
    rules: &NetlifyToml,
    api: Option<&str>,
    reloader: Option<&crate::livereload::Reloader>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
        headers.push(header);
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    if let Some(api) = api
        && target.starts_with("/api/")
    {
        return match proxy(&mut stream, &mut reader, api, &request_line, &headers) {
            Ok(()) => Ok(()),
            Err(_) => {
                let body = r#"{"error":{"code":"bad_gateway","message":"The API is not running"}}"#;
                write!(
                    stream,
                    "HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                )
            }
        };
    }
    if method != "GET" && method != "HEAD" {
        let body = "method not allowed";
        return write!(
            stream,
            "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
    }
    let url_path = percent_decode(target.split(['?', '#']).next().unwrap_or("/"));
    if let Some(reloader) = reloader {
        if url_path == "/__livereload.js" {
            let js = crate::livereload::CLIENT_JS;
            return write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: text/javascript\r\ncontent-length: {}\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n{js}",
                js.len()
            );
        }
        if url_path == "/__livereload" {
            // Server-Sent Events: one message when the build changes; comments keep it open.
            write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n"
            )?;
            let seen = reloader.generation();
            loop {
                if reloader.wait_past(seen, std::time::Duration::from_secs(15)) > seen {
                    return stream.write_all(b"data: reload\n\n");
                }
                stream.write_all(b": ping\n\n")?;
            }
        }
    }
    // netlify.toml's headers (the CSP among them), but no long caching: edits must show.
    let extra: String = rules
        .headers_for(&url_path)
        .into_iter()
        .filter(|(k, _)| !k.eq_ignore_ascii_case("cache-control"))
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    match resolve(root, &rules.redirects, &url_path) {
        Resolved::Redirect { location, status } => write!(
            stream,
            "HTTP/1.1 {status} Redirect\r\nlocation: {location}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        ),
        Resolved::File { path, status } => {
            let mut body = std::fs::read(&path).unwrap_or_else(|_| b"Not found".to_vec());
            if reloader.is_some() && path.extension().is_some_and(|e| e == "html") {
                let html = String::from_utf8_lossy(&body).replacen(
                    "</head>",
                    "<script type=\"module\" src=\"/__livereload.js\"></script></head>",
                    1,
                );
                body = html.into_bytes();
            }
            write!(
                stream,
                "HTTP/1.1 {status} {}\r\ncontent-type: {}\r\ncontent-length: {}\r\ncache-control: no-cache\r\n{extra}connection: close\r\n\r\n",
                if status == 200 { "OK" } else { "Not Found" },
                content_type(&path),
                body.len()
            )?;
            if method == "GET" {
                stream.write_all(&body)?;
            }
            Ok(())
        }
    }
}

/// Serves `root` until the process ends, one thread per connection, with netlify.toml's
/// redirects and headers; `/api/*` goes to `api` (`host:port`) when given.
pub fn serve(
    listener: TcpListener,
    root: PathBuf,
    mut rules: NetlifyToml,
    api: Option<String>,
    reloader: Option<std::sync::Arc<crate::livereload::Reloader>>,
) -> anyhow::Result<()> {
    if let Some(api) = &api {
        rules.allow_frames_from(&format!("http://{api}"));
    }
    let shared = std::sync::Arc::new((root, rules, api, reloader));
    for stream in listener.incoming().flatten() {
        let shared = shared.clone();
        std::thread::spawn(move || {
            let _ = handle(
                stream,
                &shared.0,
                &shared.1,
                shared.2.as_deref(),
                shared.3.as_deref(),
            );
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_urls_redirect_rules_and_404s_resolve_like_netlify() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in [
            "index.html",
            "about/index.html",
            "404.html",
            "service-not-found.html",
            "resources/index.html",
            "services/coaching/index.html",
        ] {
            std::fs::create_dir_all(root.join(f).parent().unwrap()).unwrap();
            std::fs::write(root.join(f), f).unwrap();
        }
        let rules = vec![
            Redirect {
                from: "/services/*".into(),
                to: "/service-not-found.html".into(),
                status: 404,
            },
            Redirect {
                from: "/blog/*".into(),
                to: "/resources".into(),
                status: 302,
            },
        ];
        let file = |p: &str, s| Resolved::File {
            path: root.join(p),
            status: s,
        };
        assert_eq!(resolve(root, &rules, "/"), file("index.html", 200));
        assert_eq!(
            resolve(root, &rules, "/about"),
            file("about/index.html", 200)
        );
        assert_eq!(
            resolve(root, &rules, "/services/coaching"),
            file("services/coaching/index.html", 200)
        );
        assert_eq!(
            resolve(root, &rules, "/services/nope"),
            file("service-not-found.html", 404)
        );
        assert_eq!(
            resolve(root, &rules, "/blog/gone"),
            Resolved::Redirect {
                location: "/resources".into(),
                status: 302
            }
        );
        assert_eq!(resolve(root, &rules, "/nothing"), file("404.html", 404));
        assert_eq!(
            resolve(root, &rules, "/../etc/passwd"),
            file("404.html", 404)
        );
    }

    #[test]
    fn headers_follow_netlify_toml_and_local_stand_ins_may_be_framed() {
        let mut rules =
            NetlifyToml::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../netlify.toml"))
                .unwrap();
        let page = rules.headers_for("/about");
        let csp = &page
            .iter()
            .find(|(k, _)| k == "Content-Security-Policy")
            .unwrap()
            .1;
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-eval"));
        assert!(
            rules
                .headers_for("/assets/islands/x.js")
                .iter()
                .any(|(k, v)| k == "Cache-Control" && v.contains("immutable"))
        );
        rules.allow_frames_from("http://127.0.0.1:8080");
        let csp = rules
            .headers_for("/book-session")
            .into_iter()
            .find(|(k, _)| k == "Content-Security-Policy")
            .unwrap()
            .1;
        assert!(
            csp.contains("frame-src http://127.0.0.1:8080 https://www.youtube-nocookie.com"),
            "{csp}"
        );
    }

    #[test]
    fn the_repository_netlify_toml_parses() {
        let rules =
            load_redirects(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../netlify.toml")).unwrap();
        assert!(
            rules
                .iter()
                .any(|r| r.from == "/services/*" && r.status == 404)
        );
    }
}
