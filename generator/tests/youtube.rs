//! The YouTube client against a local server that answers and checks requests the way the
//! YouTube Data API v3 does (API key required, the parts and ids it needs).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::{TestSite, fixed_now};
use generator::{site, youtube};

const KEY: &str = "test-api-key";
const CHANNEL: &str = "UCcoachchannel0000000000";

struct FakeYouTube {
    base: String,
    requests: Arc<AtomicUsize>,
    paths: Arc<Mutex<Vec<String>>>,
}

fn query_value<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
}

fn answer(path: &str, query: &str) -> (u16, String) {
    if query_value(query, "key") != Some(KEY) {
        return (
            400,
            r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key."}}"#
                .into(),
        );
    }
    match path {
        "/channels" if query_value(query, "id") == Some(CHANNEL) && query_value(query, "part") == Some("contentDetails") => (
            200,
            r#"{"items":[{"id":"UCcoachchannel0000000000","contentDetails":{"relatedPlaylists":{"uploads":"UUcoachchannel0000000000"}}}]}"#.into(),
        ),
        "/playlistItems" if query_value(query, "playlistId") == Some("UUcoachchannel0000000000") => (
            200,
            r#"{"items":[
              {"contentDetails":{"videoId":"NEWVIDEO001"},"status":{"privacyStatus":"public"}},
              {"contentDetails":{"videoId":"PRIVATE0001"},"status":{"privacyStatus":"private"}},
              {"contentDetails":{"videoId":"dupCurated1"},"status":{"privacyStatus":"public"}}
            ]}"#.into(),
        ),
        "/videos" if query_value(query, "id") == Some("NEWVIDEO001%2CdupCurated1") => (
            200,
            r#"{"items":[
              {"id":"NEWVIDEO001","snippet":{"title":"Leading Through Change","description":"A talk.","publishedAt":"2026-10-01T09:00:00Z","liveBroadcastContent":"none","tags":["Change","change","Strategy"],"thumbnails":{"high":{"url":"https://i.ytimg.com/vi/NEWVIDEO001/hqdefault.jpg"}}},"contentDetails":{"duration":"PT15M51S"}},
              {"id":"dupCurated1","snippet":{"title":"Fetched copy of a curated video","publishedAt":"2026-09-01T09:00:00Z","liveBroadcastContent":"none","thumbnails":{}},"contentDetails":{"duration":"PT1M"}}
            ]}"#.into(),
        ),
        _ => (404, format!(r#"{{"error":{{"code":404,"message":"unexpected request {path}?{query}"}}}}"#)),
    }
}

fn start_fake() -> FakeYouTube {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/youtube/v3", listener.local_addr().unwrap());
    let requests = Arc::new(AtomicUsize::new(0));
    let paths = Arc::new(Mutex::new(Vec::new()));
    let (count, seen) = (requests.clone(), paths.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap() == 0 || header == "\r\n" {
                    break;
                }
            }
            count.fetch_add(1, Ordering::SeqCst);
            let target = line.split_whitespace().nth(1).unwrap_or("/").to_string();
            let target = target
                .strip_prefix("/youtube/v3")
                .unwrap_or(&target)
                .to_string();
            let (path, query) = target.split_once('?').unwrap_or((&target, ""));
            seen.lock().unwrap().push(path.to_string());
            let (status, body) = answer(path, query);
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    FakeYouTube {
        base,
        requests,
        paths,
    }
}

fn client(base: &str, key: &str, cache: &std::path::Path) -> youtube::Client {
    youtube::Client {
        api_base: base.into(),
        api_key: key.into(),
        channel_id: CHANNEL.into(),
        cache_file: cache.to_path_buf(),
    }
}

#[test]
fn latest_uploads_are_fetched_with_three_calls_then_served_from_the_cache() {
    let fake = start_fake();
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("youtube.json");
    let videos = client(&fake.base, KEY, &cache).latest(fixed_now()).unwrap();
    let ids: Vec<&str> = videos.iter().map(|v| v.youtube_id.as_str()).collect();
    assert_eq!(
        ids,
        ["NEWVIDEO001", "dupCurated1"],
        "private uploads are left out"
    );
    assert_eq!(videos[0].duration.as_deref(), Some("15:51"));
    assert_eq!(
        *fake.paths.lock().unwrap(),
        ["/channels", "/playlistItems", "/videos"]
    );

    // Within 15 minutes: no request at all.
    client(&fake.base, KEY, &cache)
        .latest(fixed_now() + chrono::Duration::minutes(14))
        .unwrap();
    assert_eq!(fake.requests.load(Ordering::SeqCst), 3);
    // After 15 minutes: the uploads playlist id is remembered, so two calls.
    client(&fake.base, KEY, &cache)
        .latest(fixed_now() + chrono::Duration::minutes(16))
        .unwrap();
    assert_eq!(fake.requests.load(Ordering::SeqCst), 5);
}

#[test]
fn a_rejected_key_is_an_error_with_youtubes_reason() {
    let fake = start_fake();
    let dir = tempfile::tempdir().unwrap();
    let err = client(&fake.base, "wrong", &dir.path().join("c.json"))
        .latest(fixed_now())
        .unwrap_err();
    assert!(err.contains("API key not valid"), "{err}");
}

/// One test touches the process environment, so nothing else races with it.
#[test]
fn the_build_merges_fetched_videos_and_survives_when_youtube_is_unreachable() {
    let fake = start_fake();
    let site = TestSite::new(None);
    let settings = std::fs::read_to_string(site.root().join("content/settings.yaml")).unwrap();
    site.write(
        "content/settings.yaml",
        &format!("{settings}youtube_channel_id: {CHANNEL}\n"),
    );
    site.write(
        "content/videos.yaml",
        "- youtube_id: dupCurated1\n  title: Curated Talk\n  published_at: 2026-01-05\n",
    );
    // SAFETY: this is the only test in this binary that reads or writes the environment.
    unsafe {
        std::env::set_var("YOUTUBE_API_KEY", KEY);
        std::env::set_var("YOUTUBE_API_BASE", &fake.base);
    }
    let opts = site::Options {
        fetch_videos: true,
        ..site.options()
    };
    let built = site::generate(&opts).unwrap();
    let videos = &built
        .pages
        .iter()
        .find(|p| p.path == "/videos")
        .unwrap()
        .html;
    assert!(videos.contains("Leading Through Change"));
    assert!(videos.contains("Curated Talk"), "the curated video stays");
    let videos = videos.replace("&#x2F;", "/");
    assert!(
        videos.contains("src=\"https://i.ytimg.com/vi/NEWVIDEO001/hqdefault.jpg\""),
        "a fetched video shows the thumbnail YouTube gave"
    );
    assert!(
        videos.contains("src=\"https://i.ytimg.com/vi/dupCurated1/hqdefault.jpg\""),
        "a curated video without a poster of its own shows YouTube's"
    );
    assert!(
        !videos.contains("Fetched copy"),
        "de-duplicated by YouTube id, curated first"
    );
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);

    std::fs::remove_dir_all(site.root().join(".cache")).unwrap();
    unsafe { std::env::set_var("YOUTUBE_API_BASE", "http://127.0.0.1:9/youtube/v3") };
    let built = site::generate(&opts).expect("the build succeeds without YouTube");
    assert!(
        built.warnings.iter().any(|w| w.contains("could not fetch")),
        "{:?}",
        built.warnings
    );
    let videos = &built
        .pages
        .iter()
        .find(|p| p.path == "/videos")
        .unwrap()
        .html;
    assert!(videos.contains("Curated Talk"));
    unsafe {
        std::env::remove_var("YOUTUBE_API_KEY");
        std::env::remove_var("YOUTUBE_API_BASE");
    }
}
