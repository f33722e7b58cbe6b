//! The coach's editor (issue 25): Decap CMS's proxy protocol on `/api/admin/content/v1`, on a
//! temporary copy of the site's repository (the real content and theme) that the API clones
//! from a bare remote and pushes every save to.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::support::*;

const PROXY: &str = "/api/admin/content/v1";
const POST: &str = "content/blog/leading-through-economic-uncertainty.md";

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .env("GIT_AUTHOR_NAME", "Seed")
        .env("GIT_AUTHOR_EMAIL", "seed@example.com")
        .env("GIT_COMMITTER_NAME", "Seed")
        .env("GIT_COMMITTER_EMAIL", "seed@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// The site's repository as the API sees it: the seed (content + theme, one commit), its bare
/// remote, and where the API keeps its working copy.
pub struct SiteRepo {
    pub dir: tempfile::TempDir,
}

impl SiteRepo {
    pub fn new() -> SiteRepo {
        let dir = tempfile::tempdir().unwrap();
        let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let seed = dir.path().join("seed");
        copy_tree(&project.join("content"), &seed.join("content"));
        copy_tree(&project.join("themes"), &seed.join("themes"));
        std::fs::write(seed.join(".gitignore"), "/.cache\n").unwrap();
        git(&seed, &["init", "-q", "-b", "main"]);
        git(&seed, &["add", "-A"]);
        git(&seed, &["commit", "-q", "-m", "the site"]);
        assert!(!dir.path().join("work").exists());
        git(dir.path(), &["clone", "-q", "--bare", "seed", "remote.git"]);
        warm_image_cache(&seed);
        SiteRepo { dir }
    }

    /// The working copy shares the tests' image cache (see [`warm_image_cache`]).
    pub fn share_image_cache(&self) {
        std::os::unix::fs::symlink(image_cache(), self.work().join(".cache")).unwrap();
    }

    pub fn remote(&self) -> PathBuf {
        self.dir.path().join("remote.git")
    }

    pub fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    pub fn config(&self) -> api::configuration::ContentRepoConfig {
        api::configuration::ContentRepoConfig {
            repo: self.work(),
            branch: "main".into(),
            remote: Some(api::secret::Secret::new(
                self.remote().display().to_string(),
            )),
            ssh_key: None,
            token: None,
            commit: true,
        }
    }

    /// `git log -1` of the remote's main: author and subject.
    pub fn last_commit(&self) -> String {
        git(
            &self.remote(),
            &["log", "-1", "--format=%an <%ae>|%s", "main"],
        )
    }

    pub fn remote_file(&self, path: &str) -> String {
        git(&self.remote(), &["show", &format!("main:{path}")])
    }

    pub fn remote_commits(&self) -> usize {
        git(&self.remote(), &["rev-list", "--count", "main"])
            .parse()
            .unwrap()
    }
}

/// The photos' WebP sizes, shared by every test's working copy: encoding them takes a minute
/// in a debug build, once, instead of once per test.
fn image_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("content-editor-cache")
}

fn warm_image_cache(seed: &Path) {
    static WARM: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    WARM.get_or_init(|| {
        std::fs::create_dir_all(image_cache()).unwrap();
        let site = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(seed.join("content"), site.path().join("content")).unwrap();
        std::os::unix::fs::symlink(seed.join("themes"), site.path().join("themes")).unwrap();
        std::os::unix::fs::symlink(image_cache(), site.path().join(".cache")).unwrap();
        let opts = generator::site::Options {
            fetch_videos: false,
            ..generator::site::Options::new(site.path())
        };
        generator::site::check(&opts).expect("the demo site passes site check");
    });
}

async fn editor_app() -> (TestApp, SiteRepo) {
    let repo = SiteRepo::new();
    // The working copy is cloned by the API at start (only the image cache is there).
    let app = spawn_app_with(Options {
        content_repo: Some(repo.config()),
        ..Options::default()
    })
    .await;
    assert!(
        repo.work().join(".git").is_dir(),
        "the API cloned the remote"
    );
    repo.share_image_cache();
    (app, repo)
}

async fn act(
    app: &TestApp,
    who: &reqwest::Client,
    action: &str,
    params: Value,
) -> reqwest::Response {
    app.post_as(who, PROXY, json!({ "action": action, "params": params }))
        .await
}

async fn ok(response: reqwest::Response) -> Value {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    body
}

async fn admin(app: &TestApp, email: &str) -> reqwest::Client {
    let c = admin_client(app, email).await;
    // admin_client signs up "Mona Adel".
    c
}

fn retitle(raw: &str, title: &str) -> String {
    raw.lines()
        .map(|l| {
            if l.starts_with("title:") {
                format!("title: \"{title}\"")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[tokio::test]
async fn the_editor_lists_reads_and_saves_a_post_as_a_commit_by_the_admin() {
    let (app, repo) = editor_app().await;
    let coach = admin(&app, "coach.editor@example.com").await;
    let info = ok(act(&app, &coach, "info", json!({})).await).await;
    assert_eq!(info["publish_modes"], json!(["simple"]));

    let listed = ok(act(
        &app,
        &coach,
        "entriesByFolder",
        json!({ "folder": "content/blog", "extension": "md", "depth": 1 }),
    )
    .await)
    .await;
    let paths: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["file"]["path"].as_str().unwrap())
        .collect();
    // Decap names the default language's file `.en.md`: the site's `.md`.
    let listed_post = POST.replace(".md", ".en.md");
    assert!(paths.contains(&listed_post.as_str()), "{paths:?}");
    assert!(paths.contains(&"content/blog/leading-through-economic-uncertainty.ar.md"));
    assert!(paths.iter().all(|p| p.starts_with("content/blog/")));

    let entry = ok(act(&app, &coach, "getEntry", json!({ "path": POST })).await).await;
    let raw = entry["data"].as_str().unwrap();
    assert!(raw.contains("Leading Through Economic Uncertainty"));
    assert_eq!(entry["file"]["id"].as_str().unwrap().len(), 64);
    let as_listed = ok(act(&app, &coach, "getEntry", json!({ "path": listed_post })).await).await;
    assert_eq!(as_listed["data"], entry["data"]);
    assert_eq!(as_listed["file"]["path"], listed_post.as_str());

    let edited = retitle(raw, "Deciding When the Ground Keeps Moving");
    let before = repo.remote_commits();
    let saved = ok(act(
        &app,
        &coach,
        "persistEntry",
        json!({
            "dataFiles": [{ "slug": "leading-through-economic-uncertainty", "path": POST, "raw": edited }],
            "assets": [],
            "options": { "commitMessage": "Update Blog “leading-through-economic-uncertainty”", "useWorkflow": false }
        }),
    )
    .await)
    .await;
    assert_eq!(saved["pending"], false, "{saved}");
    assert_eq!(repo.remote_commits(), before + 1);
    assert_eq!(
        repo.last_commit(),
        "Mona Adel <coach.editor@example.com>|Update Blog “leading-through-economic-uncertainty”"
    );
    assert!(
        repo.remote_file(POST)
            .contains("title: \"Deciding When the Ground Keeps Moving\"")
    );
    // The working copy holds it too, and reading it again gives the new version.
    let again = ok(act(&app, &coach, "getEntry", json!({ "path": POST })).await).await;
    assert_eq!(again["data"].as_str().unwrap(), edited);

    // entriesByFiles reads YAML data files.
    let files = ok(act(
        &app,
        &coach,
        "entriesByFiles",
        json!({ "files": [{ "path": "content/packages.yaml", "label": "Packages" }] }),
    )
    .await)
    .await;
    assert!(files[0]["data"].as_str().unwrap().contains("individual-1"));
    // Nothing is left behind in the working copy: no temporary file, no check's shadow.
    let status = git(&repo.work(), &["status", "--porcelain", "--ignored"]);
    assert!(
        !status.contains(".tmp") && !status.contains("content-editor"),
        "{status}"
    );
}

#[tokio::test]
async fn a_yaml_file_saved_from_the_editor_keeps_its_comments() {
    let (app, repo) = editor_app().await;
    let coach = admin(&app, "coach.comments@example.com").await;
    let path = "content/faqs.yaml";
    let entry = ok(act(&app, &coach, "getEntry", json!({ "path": path })).await).await;
    let raw = entry["data"].as_str().unwrap().to_string();
    let comments: Vec<&str> = raw.lines().filter(|l| l.starts_with('#')).collect();
    assert!(comments.len() >= 3, "{comments:?}");
    // What Decap writes: the values again, without a comment, one question edited.
    let first_question = raw
        .lines()
        .find(|l| l.trim_start().starts_with("en:"))
        .unwrap()
        .to_string();
    let written: String = raw
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            if l == first_question {
                "    en: \"What is executive coaching?\"".to_string()
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect();
    ok(act(
        &app,
        &coach,
        "persistEntry",
        json!({
            "dataFiles": [{ "slug": "faqs", "path": path, "raw": written }],
            "assets": [],
            "options": { "commitMessage": "Update FAQs", "useWorkflow": false }
        }),
    )
    .await)
    .await;
    let saved = repo.remote_file(path);
    assert!(
        saved.contains("en: \"What is executive coaching?\""),
        "{saved}"
    );
    assert!(
        saved.starts_with(comments[0]),
        "the opening comment: {saved}"
    );
    for comment in &comments {
        assert!(saved.contains(comment), "{comment} kept: {saved}");
    }
    // Each section's title still stands above the same question: as many come before it.
    let before = |text: &str| {
        text.split("# --- Sessions")
            .next()
            .unwrap()
            .matches("- question:")
            .count()
    };
    assert_eq!(before(&saved), before(&raw));
    // And reading it again gives what was committed.
    let again = ok(act(&app, &coach, "getEntry", json!({ "path": path })).await).await;
    // (`remote_file` trims the final newline, as git's output goes through `trim`.)
    assert_eq!(again["data"].as_str().unwrap().trim_end(), saved);
}

#[tokio::test]
async fn a_change_site_check_refuses_is_answered_with_its_message_and_nothing_is_committed() {
    let (app, repo) = editor_app().await;
    let coach = admin(&app, "coach.refused@example.com").await;
    let entry = ok(act(&app, &coach, "getEntry", json!({ "path": POST })).await).await;
    let raw = entry["data"].as_str().unwrap();
    let before = repo.remote_commits();

    let (status, error) = error_of(
        act(
            &app,
            &coach,
            "persistEntry",
            json!({ "dataFiles": [{ "slug": "x", "path": POST, "raw": retitle(raw, "") }], "assets": [], "options": {} }),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422, "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("site check refused this change"),
        "{message}"
    );
    assert!(
        message.contains(POST) && message.contains("field `title`"),
        "{message}"
    );
    assert!(error["fields"][POST].is_string(), "{error}");
    assert_eq!(repo.remote_commits(), before);
    assert_eq!(
        std::fs::read_to_string(repo.work().join(POST)).unwrap(),
        raw,
        "the working copy is untouched"
    );

    // A link to a page that does not exist is refused the same way (the link check).
    let broken = raw.replacen("\n---\n", "\n---\nSee [nowhere](/no-such-page).\n\n", 1);
    let (status, error) = error_of(
        act(
            &app,
            &coach,
            "persistEntry",
            json!({ "dataFiles": [{ "slug": "x", "path": POST, "raw": broken }], "assets": [], "options": {} }),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422, "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("/no-such-page"),
        "{error}"
    );

    // A package with a price that is not a number.
    let packages = ok(act(
        &app,
        &coach,
        "getEntry",
        json!({ "path": "content/packages.yaml" }),
    )
    .await)
    .await;
    let yaml = packages["data"]
        .as_str()
        .unwrap()
        .replacen("price: 4500", "price: lots", 1);
    let (status, error) = error_of(
        act(
            &app,
            &coach,
            "persistEntry",
            json!({ "dataFiles": [{ "slug": "packages", "path": "content/packages.yaml", "raw": yaml }], "assets": [], "options": {} }),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422, "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("content/packages.yaml"),
        "{error}"
    );
    assert_eq!(repo.remote_commits(), before);
}

const PREVIEW: &str = "/api/admin/content/preview";

#[tokio::test]
async fn the_preview_is_the_page_the_generator_renders_with_the_edit_and_nothing_is_saved() {
    let (app, repo) = editor_app().await;
    let coach = admin(&app, "coach.preview@example.com").await;
    let entry = ok(act(&app, &coach, "getEntry", json!({ "path": POST })).await).await;
    let raw = entry["data"].as_str().unwrap().to_string();
    let before = repo.remote_commits();

    // A post, as the editor names it: its own page, in the site's theme.
    let edited = retitle(&raw, "A Title Nobody Saved Yet");
    let page = ok(app
        .post_as(
            &coach,
            PREVIEW,
            json!({ "path": POST.replace(".md", ".en.md"), "raw": edited }),
        )
        .await)
    .await;
    assert_eq!(page["url"], "/blog/leading-through-economic-uncertainty");
    let html = page["html"].as_str().unwrap();
    assert!(html.contains("<h1") && html.contains("A Title Nobody Saved Yet"));
    assert!(
        html.replace("&#x2F;", "/")
            .contains("<link rel=\"stylesheet\" href=\"/assets/css/site."),
        "the site's own stylesheet"
    );
    // Its Arabic translation: the Arabic page.
    let arabic = POST.replace(".md", ".ar.md");
    let entry = ok(act(&app, &coach, "getEntry", json!({ "path": arabic })).await).await;
    let raw_ar = retitle(entry["data"].as_str().unwrap(), "عنوان لم يُحفظ بعد");
    let page = ok(app
        .post_as(&coach, PREVIEW, json!({ "path": arabic, "raw": raw_ar }))
        .await)
    .await;
    assert_eq!(page["url"], "/ar/blog/leading-through-economic-uncertainty");
    assert!(page["html"].as_str().unwrap().contains("عنوان لم يُحفظ بعد"));

    // A data file shows on the page the editor names: a package's new price on /pricing.
    let packages = ok(act(
        &app,
        &coach,
        "getEntry",
        json!({ "path": "content/packages.yaml" }),
    )
    .await)
    .await;
    let yaml = packages["data"]
        .as_str()
        .unwrap()
        .replacen("price: 4500", "price: 4321", 1);
    let page = ok(app
        .post_as(
            &coach,
            PREVIEW,
            json!({ "path": "content/packages.yaml", "raw": yaml, "url": "/pricing" }),
        )
        .await)
    .await;
    assert_eq!(page["url"], "/pricing");
    assert!(page["html"].as_str().unwrap().contains("4,321"));

    // What a save would refuse is refused with the same message.
    let (status, error) = error_of(
        app.post_as(
            &coach,
            PREVIEW,
            json!({ "path": POST, "raw": retitle(&raw, "") }),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422, "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("site check refused this change") && message.contains("field `title`"),
        "{message}"
    );
    // Outside content/, and an image, are refused.
    for path in ["../Cargo.toml", "content/../.git/config", "/etc/passwd"] {
        let (status, error) = error_of(
            app.post_as(&coach, PREVIEW, json!({ "path": path, "raw": "x" }))
                .await,
        )
        .await;
        assert!(status == 400 || status == 422, "{path}: {status} {error}");
    }
    // A client is not an admin.
    let client = new_client();
    app.sign_up(&client, "client.preview@example.com").await;
    let (status, _) = error_of(
        app.post_as(&client, PREVIEW, json!({ "path": POST, "raw": edited }))
            .await,
    )
    .await;
    assert_eq!(status, 403);

    // Nothing was written or committed.
    assert_eq!(repo.remote_commits(), before);
    assert_eq!(
        std::fs::read_to_string(repo.work().join(POST)).unwrap(),
        raw
    );
    let status = git(&repo.work(), &["status", "--porcelain", "--ignored"]);
    assert!(!status.contains("content-editor"), "{status}");
}

#[tokio::test]
async fn a_save_based_on_an_older_version_is_refused_and_the_newer_one_kept() {
    let (app, repo) = editor_app().await;
    let first = admin(&app, "first.editor@example.com").await;
    let second = admin(&app, "second.editor@example.com").await;
    let mine = ok(act(&app, &first, "getEntry", json!({ "path": POST })).await).await;
    let theirs = ok(act(&app, &second, "getEntry", json!({ "path": POST })).await).await;
    let save = |raw: String| json!({ "dataFiles": [{ "slug": "x", "path": POST, "raw": raw }], "assets": [], "options": {} });
    let newer = retitle(
        theirs["data"].as_str().unwrap(),
        "The Second Editor's Title",
    );
    ok(act(&app, &second, "persistEntry", save(newer.clone())).await).await;
    let commits = repo.remote_commits();

    let (status, error) = error_of(
        act(
            &app,
            &first,
            "persistEntry",
            save(retitle(
                mine["data"].as_str().unwrap(),
                "The First Editor's Title",
            )),
        )
        .await,
    )
    .await;
    assert_eq!(status, 409, "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("changed by someone else")
    );
    assert_eq!(repo.remote_commits(), commits);
    assert_eq!(
        std::fs::read_to_string(repo.work().join(POST)).unwrap(),
        newer
    );

    // Reading it again makes the next save one based on the newest version.
    let fresh = ok(act(&app, &first, "getEntry", json!({ "path": POST })).await).await;
    let newest = retitle(fresh["data"].as_str().unwrap(), "The First Editor's Title");
    ok(act(&app, &first, "persistEntry", save(newest)).await).await;
    assert_eq!(repo.remote_commits(), commits + 1);

    // A new file nobody has read, where one already exists, is a conflict too.
    let (status, _) = error_of(
        act(
            &app,
            &second,
            "persistEntry",
            json!({ "dataFiles": [{ "slug": "x", "path": "content/blog/executive-presence-is-not-charisma.md", "raw": newer }], "assets": [], "options": {} }),
        )
        .await,
    )
    .await;
    assert_eq!(status, 409);
}

#[tokio::test]
async fn paths_outside_content_are_refused_whatever_the_action() {
    let (app, repo) = editor_app().await;
    let coach = admin(&app, "coach.paths@example.com").await;
    // A symbolic link inside content/ that leads out of the repository.
    std::os::unix::fs::symlink("/etc", repo.work().join("content/outside")).unwrap();
    std::os::unix::fs::symlink(
        repo.work().join("themes/default"),
        repo.work().join("content/theme-link"),
    )
    .unwrap();
    let before = repo.remote_commits();
    let evil = [
        "../Cargo.toml",
        "content/../../etc/passwd.md",
        "/etc/passwd",
        "/tmp/x.md",
        ".git/config",
        "content/.git/config",
        "content/../.git/config",
        "content/outside/passwd.md",
        "content/theme-link/templates/base.md",
        "themes/default/templates/base.html",
        "content/blog/script.sh",
    ];
    for path in evil {
        let (status, error) =
            error_of(act(&app, &coach, "getEntry", json!({ "path": path })).await).await;
        assert_eq!(status, 422, "getEntry {path}: {error}");
        let (status, error) = error_of(
            act(
                &app,
                &coach,
                "persistEntry",
                json!({ "dataFiles": [{ "slug": "x", "path": path, "raw": "---\ntitle: x\n---\n" }], "assets": [], "options": {} }),
            )
            .await,
        )
        .await;
        assert_eq!(status, 422, "persistEntry {path}: {error}");
        let (status, _) =
            error_of(act(&app, &coach, "deleteFile", json!({ "path": path })).await).await;
        assert_eq!(status, 422, "deleteFile {path}");
    }
    let (status, _) = error_of(
        act(
            &app,
            &coach,
            "entriesByFolder",
            json!({ "folder": "content/outside", "extension": "md" }),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422);
    let (status, _) = error_of(
        act(
            &app,
            &coach,
            "entriesByFolder",
            json!({ "folder": "../", "extension": "md" }),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422);
    // A rename (newPath) out of content/ is refused too.
    let (status, _) = error_of(
        act(
            &app,
            &coach,
            "persistEntry",
            json!({ "dataFiles": [{ "slug": "x", "path": POST, "raw": "x", "newPath": "../x.md" }], "assets": [], "options": {} }),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(repo.remote_commits(), before);
    assert_eq!(git(&repo.remote(), &["show", "main:.gitignore"]), "/.cache");
}

#[tokio::test]
async fn media_are_listed_read_and_uploaded_as_images_checked_by_their_bytes() {
    let (app, repo) = editor_app().await;
    let coach = admin(&app, "coach.media@example.com").await;
    let media = ok(act(
        &app,
        &coach,
        "getMedia",
        json!({ "mediaFolder": "content/static/images" }),
    )
    .await)
    .await;
    let portrait = media
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["path"] == "content/static/images/portrait.jpg")
        .expect("the portrait is listed")
        .clone();
    assert_eq!(portrait["encoding"], "base64");
    assert_eq!(portrait["name"], "portrait.jpg");
    let one = ok(act(
        &app,
        &coach,
        "getMediaFile",
        json!({ "path": "content/static/images/portrait.jpg" }),
    )
    .await)
    .await;
    assert_eq!(one["id"], portrait["id"]);

    // A real photo under a new name.
    let before = repo.remote_commits();
    let uploaded = ok(act(
        &app,
        &coach,
        "persistMedia",
        json!({ "asset": { "path": "content/static/images/team-day.jpg", "content": portrait["content"], "encoding": "base64" },
                "options": { "commitMessage": "Upload “team-day.jpg”" } }),
    )
    .await)
    .await;
    assert_eq!(uploaded["path"], "content/static/images/team-day.jpg");
    assert_eq!(repo.remote_commits(), before + 1);
    assert_eq!(
        repo.last_commit(),
        "Mona Adel <coach.media@example.com>|Upload “team-day.jpg”"
    );

    // Text named .png, a PNG named .jpg: refused by their bytes.
    use base64::Engine;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    for (path, bytes) in [
        (
            "content/static/images/x.png",
            b"<svg onload=alert(1)>".to_vec(),
        ),
        (
            "content/static/images/y.jpg",
            b"\x89PNG\r\n\x1a\n0000".to_vec(),
        ),
    ] {
        let (status, error) = error_of(
            act(
                &app,
                &coach,
                "persistMedia",
                json!({ "asset": { "path": path, "content": b64(&bytes), "encoding": "base64" } }),
            )
            .await,
        )
        .await;
        assert_eq!(status, 422, "{path}: {error}");
    }
    // Over 10 MB.
    let mut big = b"\xFF\xD8\xFF".to_vec();
    big.resize(10 * 1024 * 1024 + 1, 0);
    let (status, _) = error_of(
        act(&app, &coach, "persistMedia", json!({ "asset": { "path": "content/static/images/big.jpg", "content": b64(&big), "encoding": "base64" } })).await,
    )
    .await;
    assert_eq!(status, 422);
    // Markdown over 1 MB.
    let (status, _) = error_of(
        act(&app, &coach, "persistEntry", json!({ "dataFiles": [{ "slug": "x", "path": "content/blog/huge.md", "raw": "a".repeat(1024 * 1024 + 1) }], "assets": [] })).await,
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(repo.remote_commits(), before + 1);

    // Deleting the upload (it was read by this session when it was saved).
    ok(act(&app, &coach, "deleteFile", json!({ "path": "content/static/images/team-day.jpg", "options": { "commitMessage": "Delete “team-day.jpg”" } })).await).await;
    assert_eq!(repo.remote_commits(), before + 2);
    assert!(
        !repo
            .work()
            .join("content/static/images/team-day.jpg")
            .exists()
    );
}

#[tokio::test]
async fn only_an_admin_of_this_site_reaches_the_editor() {
    let (app, repo) = editor_app().await;
    let body = json!({ "action": "getEntry", "params": { "path": POST } });
    let (status, _) = error_of(app.post_as(&new_client(), PROXY, body.clone()).await).await;
    assert_eq!(status, 401);
    let client = new_client();
    app.sign_up(&client, "client.editor@example.com").await;
    let (status, _) = error_of(app.post_as(&client, PROXY, body.clone()).await).await;
    assert_eq!(status, 403);
    let (status, _) = error_of(app.get_as(&client, "/api/admin/content/status").await).await;
    assert_eq!(status, 403);
    // An admin's browser, but a request from another site.
    let coach = admin(&app, "coach.origin@example.com").await;
    let response = coach
        .post(app.url(PROXY))
        .header("Origin", "https://evil.example")
        .json(&body)
        .send()
        .await
        .unwrap();
    let (status, _) = error_of(response).await;
    assert_eq!(status, 403);
    // Not JSON.
    let response = coach
        .post(app.url(PROXY))
        .header("Origin", &app.base)
        .header("Content-Type", "text/plain")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let (status, _) = error_of(response).await;
    assert_eq!(status, 415);
    let _ = repo;
}

#[tokio::test]
async fn a_failed_push_keeps_the_commit_shows_pending_and_is_retried() {
    let (app, repo) = editor_app().await;
    let coach = admin(&app, "coach.pending@example.com").await;
    let entry = ok(act(&app, &coach, "getEntry", json!({ "path": POST })).await).await;
    let before = repo.remote_commits();
    // The remote is unreachable.
    let away = repo.dir.path().join("away.git");
    std::fs::rename(repo.remote(), &away).unwrap();
    let saved = ok(act(
        &app,
        &coach,
        "persistEntry",
        json!({ "dataFiles": [{ "slug": "x", "path": POST, "raw": retitle(entry["data"].as_str().unwrap(), "Saved While Offline") }], "assets": [], "options": { "commitMessage": "Offline edit" } }),
    )
    .await)
    .await;
    assert_eq!(saved["pending"], true, "{saved}");
    assert!(saved["commit"].is_string());
    let status = ok(app.get_as(&coach, "/api/admin/content/status").await).await;
    assert_eq!(status["pending"], true);
    let error = status["lastError"].as_str().unwrap();
    assert!(
        !error.contains(&repo.remote().display().to_string()),
        "the remote's address is not shown: {error}"
    );
    // The commit is kept in the working copy.
    assert_eq!(
        git(&repo.work(), &["log", "-1", "--format=%s"]),
        "Offline edit"
    );

    std::fs::rename(&away, repo.remote()).unwrap();
    let after = app.state.content.as_ref().unwrap().retry_push().await;
    assert!(!after.pending);
    assert_eq!(repo.remote_commits(), before + 1);
    assert_eq!(
        repo.last_commit(),
        "Mona Adel <coach.pending@example.com>|Offline edit"
    );
    let status = ok(app.get_as(&coach, "/api/admin/content/status").await).await;
    assert_eq!(status["pending"], false);
}

#[tokio::test]
async fn the_editor_is_configured_from_the_content_model() {
    let (app, _repo) = editor_app().await;
    let coach = admin(&app, "coach.config@example.com").await;
    let config = ok(app.get_as(&coach, "/api/admin/content/config").await).await;
    assert_eq!(config["backend"]["name"], "proxy");
    assert_eq!(config["backend"]["proxy_url"], PROXY);
    let names: Vec<&str> = config["collections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "blog",
            "resources",
            "services",
            "events",
            "pages",
            "policies",
            "faqs",
            "testimonials",
            "logos",
            "packages",
            "videos",
            "settings"
        ]
    );
    let blog = &config["collections"][0];
    let title = blog["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "title")
        .unwrap();
    assert_eq!(title["required"], true);
    assert_eq!(title["label"], "Title");
    // The Arabic editor page's: the same fields, labelled in Arabic.
    let arabic = ok(app
        .get_as(&coach, "/api/admin/content/config?lang=ar")
        .await)
    .await;
    let blog = &arabic["collections"][0];
    assert_eq!(blog["name"], "blog");
    assert_eq!(blog["label"], "المدونة");
    let title = blog["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "title")
        .unwrap();
    assert_eq!(
        (title["label"].as_str(), title["required"].as_bool()),
        (Some("العنوان"), Some(true))
    );
    let (status, _) = error_of(
        app.get_as(&coach, "/api/admin/content/config?lang=xx")
            .await,
    )
    .await;
    assert!(status == 400 || status == 422, "{status}");
    let client = new_client();
    app.sign_up(&client, "client.config@example.com").await;
    let (status, _) = error_of(app.get_as(&client, "/api/admin/content/config").await).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn without_a_content_repository_the_editor_says_so() {
    let app = spawn_app().await;
    let coach = admin(&app, "coach.none@example.com").await;
    let (status, error) = error_of(app.get_as(&coach, "/api/admin/content/status").await).await;
    assert_eq!(status, 404);
    assert!(error["message"].as_str().unwrap().contains("CONTENT_REPO"));
    let (status, _) = error_of(
        app.post_as(&coach, PROXY, json!({ "action": "info", "params": {} }))
            .await,
    )
    .await;
    assert_eq!(status, 404);
}
