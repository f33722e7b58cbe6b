//! `devserver`'s server over real HTTP: static files as Netlify serves them, conditional and
//! partial requests, compression, live reload, and `/api/*` mounted in process or forwarded.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{ConnectInfo, Path};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{AppendHeaders, IntoResponse};
use axum::routing::{get, post};
use devserver::livereload::{CLIENT_JS, Reloader};
use devserver::serve::{self, Api, NetlifyToml};

const NETLIFY_TOML: &str = r#"
[[redirects]]
from = "/old-about"
to = "/about"
status = 301

[[redirects]]
from = "/about"
to = "/elsewhere"
status = 302

[[redirects]]
from = "/services/*"
to = "/service-not-found.html"
status = 404

[[headers]]
for = "/*"
[headers.values]
X-Frame-Options = "DENY"
Cache-Control = "public, max-age=31536000, immutable"
"#;

fn page(title: &str) -> String {
    let words = "Coaching for leaders who want to lead well. ".repeat(40);
    format!(
        "<!doctype html><html><head><title>{title}</title></head><body><h1>{title}</h1><p>{words}</p></body></html>"
    )
}

/// An output folder, and the server over it on a free port.
struct Served {
    out: tempfile::TempDir,
    url: String,
    reloader: Arc<Reloader>,
    css: String,
}

async fn listen(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap()
    });
    format!("http://{addr}")
}

async fn serve_site(api: Api) -> Served {
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    let css = "body { color: #222; margin: 0 auto; }\n".repeat(50);
    for (rel, text) in [
        ("index.html", page("Home")),
        ("about/index.html", page("About")),
        ("404.html", page("Page not found")),
        ("service-not-found.html", page("No such service")),
        ("assets/site.css", css.clone()),
    ] {
        let path = public.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let toml = dir.path().join("netlify.toml");
    std::fs::write(&toml, NETLIFY_TOML).unwrap();
    let rules = NetlifyToml::load(&toml).unwrap();
    let reloader = Arc::new(Reloader::default());
    let app = serve::router(public, rules, api, Some(reloader.clone()));
    Served {
        url: listen(app).await,
        out: dir,
        reloader,
        css,
    }
}

/// A plain client: no redirects followed, no decompression, no proxy.
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .build()
        .unwrap()
}

/// The browser asking again for `url`, whose copy has entity tag `tag`.
async fn revalidate(c: &reqwest::Client, url: &str, tag: &str) -> reqwest::Response {
    c.get(url)
        .header("if-none-match", tag)
        .send()
        .await
        .unwrap()
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or("")
}

#[tokio::test]
async fn files_clean_urls_redirects_headers_and_404s_behave_like_netlify() {
    let s = serve_site(Api::None).await;
    let c = client();
    let about = c.get(format!("{}/about", s.url)).send().await.unwrap();
    assert_eq!(about.status(), 200, "a file wins over a redirect rule");
    let headers = about.headers().clone();
    assert_eq!(header(&headers, "content-type"), "text/html; charset=utf-8");
    assert_eq!(header(&headers, "x-frame-options"), "DENY");
    assert_eq!(
        header(&headers, "cache-control"),
        "no-cache",
        "edits must show, so netlify.toml's long caching is not used locally"
    );
    let html = about.text().await.unwrap();
    assert!(html.contains("<h1>About</h1>"));
    assert!(
        html.contains(r#"<script type="module" src="/__livereload.js?since=0"></script></head>"#)
    );

    let old = c.get(format!("{}/old-about", s.url)).send().await.unwrap();
    assert_eq!(old.status(), 301);
    assert_eq!(header(old.headers(), "location"), "/about");

    let service = c
        .get(format!("{}/services/nope", s.url))
        .send()
        .await
        .unwrap();
    assert_eq!(service.status(), 404);
    assert!(service.text().await.unwrap().contains("No such service"));

    let missing = c
        .get(format!("{}/nothing/here", s.url))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    assert!(missing.text().await.unwrap().contains("Page not found"));

    let escape = c
        .get(format!("{}/%2e%2e/netlify.toml", s.url))
        .send()
        .await
        .unwrap();
    assert_eq!(escape.status(), 404, "nothing outside the output folder");

    let post = c.post(format!("{}/about", s.url)).send().await.unwrap();
    assert_eq!(post.status(), 405);
}

#[tokio::test]
async fn head_range_and_entity_tags_answer_like_a_real_server() {
    let s = serve_site(Api::None).await;
    let c = client();
    let css_url = format!("{}/assets/site.css", s.url);
    let head = c.head(&css_url).send().await.unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(header(head.headers(), "content-type"), "text/css");
    assert_eq!(
        header(head.headers(), "content-length"),
        s.css.len().to_string()
    );
    assert_eq!(head.bytes().await.unwrap().len(), 0, "HEAD has no body");

    let part = c
        .get(&css_url)
        .header("range", "bytes=5-9")
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), 206);
    assert_eq!(
        header(part.headers(), "content-encoding"),
        "",
        "a byte range is not compressed"
    );
    assert_eq!(part.text().await.unwrap(), &s.css[5..10]);

    for url in [css_url.clone(), format!("{}/about", s.url)] {
        let first = c.get(&url).send().await.unwrap();
        let tag = header(first.headers(), "etag").to_string();
        assert!(tag.starts_with('"'), "{url} has an entity tag: {tag}");
        let again = revalidate(&c, &url, &tag).await;
        assert_eq!(again.status(), 304, "{url}");
        assert!(again.bytes().await.unwrap().is_empty());
    }
    // An edit gives the page a new tag, so the browser gets the new bytes.
    let about = s.out.path().join("public/about/index.html");
    let before = c.get(format!("{}/about", s.url)).send().await.unwrap();
    let tag = header(before.headers(), "etag").to_string();
    std::fs::write(&about, page("About, edited")).unwrap();
    let after = revalidate(&c, &format!("{}/about", s.url), &tag).await;
    assert_eq!(after.status(), 200);
    assert!(after.text().await.unwrap().contains("About, edited"));
}

#[tokio::test]
async fn pages_and_assets_are_compressed_as_the_browser_accepts() {
    let s = serve_site(Api::None).await;
    let c = client();
    let css_url = format!("{}/assets/site.css", s.url);
    let gz = c
        .get(&css_url)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(header(gz.headers(), "content-encoding"), "gzip");
    assert_eq!(header(gz.headers(), "vary"), "accept-encoding");
    let bytes = gz.bytes().await.unwrap();
    assert!(bytes.len() < s.css.len() / 4, "{} bytes", bytes.len());
    let mut plain = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut plain)
        .unwrap();
    assert_eq!(plain, s.css);

    let br = c
        .get(format!("{}/about", s.url))
        .header("accept-encoding", "br")
        .send()
        .await
        .unwrap();
    assert_eq!(header(br.headers(), "content-encoding"), "br");
    let identity = c.get(format!("{}/about", s.url)).send().await.unwrap();
    assert_eq!(header(identity.headers(), "content-encoding"), "");
}

#[tokio::test]
async fn open_pages_are_told_to_reload_after_a_rebuild() {
    let s = serve_site(Api::None).await;
    let c = client();
    let js = c
        .get(format!("{}/__livereload.js", s.url))
        .send()
        .await
        .unwrap();
    assert_eq!(js.text().await.unwrap(), CLIENT_JS);
    let events = c
        .get(format!("{}/__livereload", s.url))
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert_eq!(
        header(events.headers(), "content-type"),
        "text/event-stream"
    );
    assert_eq!(header(events.headers(), "content-encoding"), "");
    let reloader = s.reloader.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        reloader.bump();
    });
    let body = tokio::time::timeout(Duration::from_secs(5), events.text())
        .await
        .expect("the stream ends after the reload message")
        .unwrap();
    assert_eq!(body.trim(), "data: reload");

    // A save while a page loads: the page was served by build 1, build 2 lands, and only then
    // does its browser ask. It reloads at once rather than waiting for a build that may never come.
    let page = c.get(format!("{}/about", s.url)).send().await.unwrap();
    let tag = header(page.headers(), "etag").to_string();
    assert!(
        page.text()
            .await
            .unwrap()
            .contains("/__livereload.js?since=1")
    );
    s.reloader.bump();
    let late = c
        .get(format!("{}/__livereload?since=1", s.url))
        .send()
        .await
        .unwrap();
    let body = tokio::time::timeout(Duration::from_secs(5), late.text())
        .await
        .expect("a page older than the build is told to reload at once")
        .unwrap();
    assert_eq!(body.trim(), "data: reload");
    // The page the browser kept names build 1, so it is not "not modified": it would reload forever.
    let again = revalidate(&c, &format!("{}/about", s.url), &tag).await;
    assert_eq!(again.status(), 200);
    assert!(
        again
            .text()
            .await
            .unwrap()
            .contains("/__livereload.js?since=2")
    );
}

/// An API stand-in: echoes what it received, sets two cookies, redirects, streams.
fn upstream_api() -> Router {
    async fn login(
        ConnectInfo(peer): ConnectInfo<SocketAddr>,
        headers: HeaderMap,
        body: String,
    ) -> impl IntoResponse {
        let seen = format!(
            "body={body};host={};cookie={};peer={}",
            header(&headers, "host"),
            header(&headers, "cookie"),
            peer.ip()
        );
        (
            StatusCode::CREATED,
            AppendHeaders([
                ("set-cookie", "session=abc; HttpOnly; Path=/"),
                ("set-cookie", "csrf=def; Path=/"),
            ]),
            seen,
        )
    }
    Router::new()
        .route("/api/login", post(login))
        .route(
            "/api/items/{id}",
            get(|Path(id): Path<String>| async move { format!("item {id}") }),
        )
        .route(
            "/api/pay",
            get(|| async { (StatusCode::SEE_OTHER, [("location", "/thanks")]) }),
        )
        .fallback(|| async { (StatusCode::NOT_FOUND, "no such API route") })
}

#[tokio::test]
async fn the_api_router_is_mounted_in_the_same_server() {
    let s = serve_site(Api::Mounted(upstream_api())).await;
    let c = client();
    let login = c
        .post(format!("{}/api/login", s.url))
        .header("cookie", "old=1")
        .body("email=a@b.c")
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 201);
    let cookies: Vec<_> = login.headers().get_all("set-cookie").iter().collect();
    assert_eq!(cookies.len(), 2);
    let body = login.text().await.unwrap();
    assert!(
        body.starts_with("body=email=a@b.c;host=127.0.0.1:"),
        "{body}"
    );
    assert!(body.ends_with("cookie=old=1;peer=127.0.0.1"), "{body}");
    let item = c
        .get(format!("{}/api/items/42", s.url))
        .send()
        .await
        .unwrap();
    assert_eq!(
        item.text().await.unwrap(),
        "item 42",
        "the API's path parameters"
    );
    let other = c.get(format!("{}/api/nope", s.url)).send().await.unwrap();
    assert_eq!(other.status(), 404);
    assert_eq!(other.text().await.unwrap(), "no such API route");
    let home = c.get(&s.url).send().await.unwrap();
    assert!(home.text().await.unwrap().contains("<h1>Home</h1>"));
}

#[tokio::test]
async fn api_requests_are_forwarded_with_status_headers_cookies_and_body() {
    let api = listen(upstream_api()).await;
    let s = serve_site(Api::Forward(api.trim_start_matches("http://").into())).await;
    let site_host = s.url.trim_start_matches("http://").to_string();
    let c = client();
    for _ in 0..3 {
        let login = c
            .post(format!("{}/api/login", s.url))
            .header("cookie", "old=1")
            .body("email=a@b.c")
            .send()
            .await
            .unwrap();
        assert_eq!(login.status(), 201);
        let cookies: Vec<_> = login.headers().get_all("set-cookie").iter().collect();
        assert_eq!(
            cookies,
            ["session=abc; HttpOnly; Path=/", "csrf=def; Path=/"]
        );
        assert_eq!(
            login.text().await.unwrap(),
            format!("body=email=a@b.c;host={site_host};cookie=old=1;peer=127.0.0.1"),
            "the API sees the browser's Host, as Netlify's proxy passes it"
        );
    }
    let pay = c.get(format!("{}/api/pay", s.url)).send().await.unwrap();
    assert_eq!(pay.status(), 303, "the browser follows the API's redirects");
    assert_eq!(header(pay.headers(), "location"), "/thanks");
    let nope = c.get(format!("{}/api/nope", s.url)).send().await.unwrap();
    assert_eq!(nope.status(), 404);
}

#[tokio::test]
async fn a_stopped_api_is_a_json_bad_gateway() {
    // A port nothing listens on: bind one, then let it go.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let s = serve_site(Api::Forward(addr.to_string())).await;
    let answer = client()
        .get(format!("{}/api/health", s.url))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 502);
    assert_eq!(
        answer.text().await.unwrap(),
        r#"{"error":{"code":"bad_gateway","message":"The API is not running"}}"#
    );
}
