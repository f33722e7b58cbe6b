//! `devserver`'s server: serves the built site on localhost the way Netlify serves it in production —
//! clean URLs (`/about` → `about/index.html`), the `[[redirects]]` of `netlify.toml` applied
//! only when no file matches, its `[[headers]]`, and `404.html` for anything else — on axum and
//! tower-http, with the API mounted in the same router (see [`router`]).

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use anyhow::Context;
use axum::Router;
use axum::body::Body;
use axum::extract::{Query, Request};
use axum::http::header::{
    ALLOW, CACHE_CONTROL, CONTENT_RANGE, CONTENT_TYPE, ETAG, HeaderName, IF_NONE_MATCH, LOCATION,
};
use axum::http::{Extensions, HeaderMap, HeaderValue, Method, StatusCode, Version};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use tower::ServiceExt;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::services::ServeFile;

use crate::livereload::Reloader;

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

/// Where `/api/*` goes.
pub enum Api {
    /// Nowhere: the site alone.
    None,
    /// The API's own router, served by this same server: no hop, no extra connection.
    Mounted(Router),
    /// An API already running at `host:port`, forwarded to as Netlify's proxy does.
    Forward(String),
}

/// The output folder and what governs serving it.
struct Files {
    root: PathBuf,
    rules: NetlifyToml,
    reloader: Option<Arc<Reloader>>,
}

/// The whole local server: the files of `root` as Netlify serves them (clean URLs, redirects
/// only when no file matches, headers, 404.html), gzip or brotli as the browser accepts,
/// `/api/*` as `api` says, and with a `reloader` the live-reload script and event stream.
/// Serve it with connect info (`into_make_service_with_connect_info::<SocketAddr>`): the API
/// reads the client's address from it.
pub fn router(
    root: PathBuf,
    rules: NetlifyToml,
    api: Api,
    reloader: Option<Arc<Reloader>>,
) -> Router {
    let mut app = Router::new();
    if let Some(reloader) = &reloader {
        let reloader = reloader.clone();
        app = app
            .route(
                "/__livereload.js",
                get(|| async {
                    (
                        [
                            (CONTENT_TYPE, "text/javascript"),
                            (CACHE_CONTROL, "no-cache"),
                        ],
                        crate::livereload::CLIENT_JS,
                    )
                }),
            )
            .route(
                "/__livereload",
                get(move |Query(page): Query<ServedPage>| {
                    reload_events(reloader.clone(), page.since)
                }),
            );
    }
    // `/api/*` goes to the API's router as it is: not through a route with a `{*rest}`
    // parameter, which the API's own `Path` extractors would see as an extra parameter.
    let api = match api {
        Api::None => None,
        Api::Mounted(api) => Some(api),
        Api::Forward(addr) => Some(crate::forward::router(&addr)),
    };
    let files = Arc::new(Files {
        root,
        rules,
        reloader,
    });
    app.fallback(move |req: Request| {
        let (api, files) = (api.clone(), files.clone());
        async move {
            match api {
                Some(api) if req.uri().path().starts_with("/api/") => {
                    match api.oneshot(req).await {
                        Ok(response) => response,
                        Err(never) => match never {},
                    }
                }
                _ => serve_file(files, req).await,
            }
        }
    })
    .layer(
        CompressionLayer::new()
            // Brotli's top levels are for files compressed once ahead of time; per request
            // a low level compresses a page in well under a millisecond.
            .quality(CompressionLevel::Precise(4))
            .compress_when(DefaultPredicate::new().and(whole_bodies_only)),
    )
}

/// A partial answer (a `Range` request) stays as it is: its byte offsets are the file's.
fn whole_bodies_only(status: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions) -> bool {
    status != StatusCode::PARTIAL_CONTENT && !headers.contains_key(CONTENT_RANGE)
}

/// `/__livereload?since=3`: the build generation the asking page was served with.
#[derive(Deserialize)]
struct ServedPage {
    since: Option<u64>,
}

/// Server-Sent Events: one `reload` message when the build moves past the page's, then the
/// stream ends; comments every 15 s keep the connection open meanwhile.
async fn reload_events(
    reloader: Arc<Reloader>,
    since: Option<u64>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, std::convert::Infallible>>> {
    let change = reloader.change_after(since);
    let stream = futures_util::stream::once(async move {
        change.await;
        Ok(Event::default().data("reload"))
    });
    Sse::new(stream).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_secs(15))
            .text("ping"),
    )
}

/// An entity tag from the file's length and modification time: `site build` leaves unchanged
/// files untouched, so a file keeps its tag across rebuilds until its bytes change. A page
/// served with the live-reload script also names the build `generation` it was served by.
fn entity_tag(meta: &std::fs::Metadata, generation: Option<u64>) -> Option<HeaderValue> {
    let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    let (len, nanos) = (meta.len(), modified.as_nanos());
    let tag = match generation {
        Some(g) => format!("\"{len:x}-{nanos:x}-g{g}\""),
        None => format!("\"{len:x}-{nanos:x}\""),
    };
    HeaderValue::from_str(&tag).ok()
}

/// True when the browser's copy (`If-None-Match`) is `tag`.
fn browser_has(req_headers: &HeaderMap, tag: &HeaderValue) -> bool {
    req_headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t.as_bytes() == tag.as_bytes())
}

async fn serve_file(files: Arc<Files>, req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(ALLOW, "GET, HEAD")],
            "method not allowed",
        )
            .into_response();
    }
    let raw_path = req.uri().path();
    let url_path = percent_encoding::percent_decode_str(raw_path)
        .decode_utf8_lossy()
        .into_owned();
    let (path, status) = match resolve(&files.root, &files.rules.redirects, &url_path) {
        Resolved::Redirect { location, status } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::FOUND);
            return (status, [(LOCATION, location)]).into_response();
        }
        Resolved::File { path, status } => (path, status),
    };
    let mut response = match file_response(&files, &path, status, req).await {
        Ok(r) => r,
        Err(_) => (StatusCode::NOT_FOUND, "Not found").into_response(),
    };
    // netlify.toml's headers (the CSP among them), but no long caching: edits must show, and
    // with the entity tag an unchanged file costs the browser a 304.
    let headers = response.headers_mut();
    for (name, value) in files.rules.headers_for(&url_path) {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            headers.insert(name, value);
        }
    }
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// The file at `path` with `status`: HTML with the live-reload script read and sent whole; any
/// other file through tower-http's `ServeFile` (HEAD, `Range`, `If-Modified-Since`).
async fn file_response(
    files: &Files,
    path: &Path,
    status: u16,
    req: Request,
) -> std::io::Result<Response> {
    let meta = tokio::fs::metadata(path).await?;
    let is_html = path.extension().is_some_and(|e| e == "html");
    // A page names the build it was served by (the live-reload script asks for changes after
    // it), so its tag does too: a page kept by the browser across a rebuild is sent again.
    let generation = files
        .reloader
        .as_ref()
        .filter(|_| is_html)
        .map(|r| r.generation());
    let tag = entity_tag(&meta, generation);
    if status == 200
        && let Some(tag) = &tag
        && browser_has(req.headers(), tag)
    {
        return Ok((StatusCode::NOT_MODIFIED, [(ETAG, tag.clone())]).into_response());
    }
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    let mut response = if let Some(generation) = generation {
        let html = tokio::fs::read_to_string(path).await?;
        let html = html.replacen(
            "</head>",
            &format!(
                "<script type=\"module\" src=\"/__livereload.js?since={generation}\"></script></head>"
            ),
            1,
        );
        (status, [(CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
    } else {
        let mut r = match ServeFile::new(path).oneshot(req).await {
            Ok(r) => r.map(Body::new),
            Err(never) => match never {},
        };
        if status != StatusCode::OK && r.status() == StatusCode::OK {
            *r.status_mut() = status;
        }
        r
    };
    if let Some(tag) = tag {
        response.headers_mut().insert(ETAG, tag);
    }
    Ok(response)
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
