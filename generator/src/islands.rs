//! The React islands (`islands/`): `site build` makes sure they are built (installing the npm
//! packages on first use), publishes esbuild's already-hashed files under `/assets/islands/`,
//! and gives templates the `island(name, props, when)` function. A page that uses an island
//! gets the runtime in its `<head>`, with the list of files of the islands it mounts on load,
//! which the runtime fetches together once the page has painted. The island's code (React
//! alone is 60 KB gzip) would otherwise share the network with the stylesheets and fonts that
//! the first paint waits for. An island that mounts when idle, visible or on intent (a
//! dialog's first hover, focus or click of its trigger) is not listed. A page without islands
//! gets no script of theirs at all.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use serde::Deserialize;
use walkdir::WalkDir;

use crate::diagnostics::Diagnostic;

pub const URL_PREFIX: &str = "/assets/islands/";

#[derive(Debug, Clone, Deserialize)]
pub struct IslandEntry {
    pub file: String,
    /// Chunks the island imports (preloaded with it).
    pub imports: Vec<String>,
    /// Per language, the message chunks the island loads as it starts (preloaded on a page
    /// in that language only: an island loads its page's language alone).
    #[serde(default)]
    pub messages: HashMap<String, Vec<String>>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    pub runtime: String,
    /// The public pages' script (menu, dialog, carousel, forms), when the build has one.
    #[serde(default)]
    pub page: Option<String>,
    /// The chunks the page script imports statically (for modulepreload).
    #[serde(default)]
    pub page_imports: Vec<String>,
    /// Per language, the page script's texts (and what they import), which it loads as it
    /// starts on a page in that language: preloaded there. None for English, which is bundled.
    #[serde(default)]
    pub page_messages: HashMap<String, Vec<String>>,
    pub islands: HashMap<String, IslandEntry>,
    #[serde(skip)]
    pub dist: PathBuf,
}

impl Manifest {
    pub fn url(file: &str) -> String {
        format!("{URL_PREFIX}{file}")
    }

    /// Every built file, by site path.
    pub fn files(&self) -> Vec<(String, PathBuf)> {
        fs::read_dir(&self.dist)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "js"))
            .filter_map(|p| {
                p.file_name()
                    .map(|n| (Self::url(&n.to_string_lossy()), p.clone()))
            })
            .collect()
    }

    /// The `<head>` tag for a page in `lang` that mounts `used` (island → when): the runtime,
    /// with `data-preload` listing the files of the islands mounted on load (each island, the
    /// chunks it imports and its first messages in the page's language). The runtime preloads
    /// them all at once after the first paint, so the island's own imports do not wait for it.
    pub fn head_tags(&self, used: &BTreeMap<String, String>, lang: &str) -> String {
        let mut files = BTreeSet::new();
        for (name, when) in used {
            if when != "load" {
                continue;
            }
            if let Some(entry) = self.islands.get(name) {
                files.insert(entry.file.clone());
                files.extend(entry.imports.iter().cloned());
                files.extend(entry.messages.get(lang).into_iter().flatten().cloned());
            }
        }
        // Hashed file names under /assets/islands/: nothing to escape in an attribute.
        let preload = files
            .iter()
            .map(|f| Self::url(f))
            .collect::<Vec<_>>()
            .join(" ");
        let preload = if preload.is_empty() {
            String::new()
        } else {
            format!(" data-preload=\"{preload}\"")
        };
        format!(
            "<script type=\"module\" src=\"{}\"{preload}></script>",
            Self::url(&self.runtime)
        )
    }
}

fn newest(dir: &Path) -> Option<SystemTime> {
    WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok()?.modified().ok())
        .max()
}

fn run(cmd: &mut Command, what: &str, dir: &Path) -> Result<String, Diagnostic> {
    let out = cmd.current_dir(dir).output().map_err(|e| {
        Diagnostic::new(dir, format!("cannot run {what}: {e}"))
            .hint("install Node.js 20 or newer (node and npm on the PATH)")
    })?;
    if !out.status.success() {
        return Err(Diagnostic::new(
            dir,
            format!(
                "{what} failed:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
        .hint("fix the error above; `cd islands && npm run build` shows it too"));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Builds the islands when their sources are newer than the last build. Returns the manifest,
/// or `None` for a site without an `islands/` folder. `report` receives the size report when a
/// build ran.
pub fn ensure_built(
    root: &Path,
    report: &mut Option<String>,
) -> Result<Option<Manifest>, Diagnostic> {
    let dir = root.join("islands");
    if !dir.join("package.json").is_file() {
        return Ok(None);
    }
    // Builds running side by side (tests, a watcher) take turns.
    let lock = fs::File::create(dir.join(".build.lock"))
        .map_err(|e| Diagnostic::new(&dir, format!("cannot create the build lock: {e}")))?;
    lock.lock()
        .map_err(|e| Diagnostic::new(&dir, format!("cannot take the build lock: {e}")))?;
    // npm records what it installed in node_modules/.package-lock.json: a lockfile changed
    // since (a pull that adds a package) installs again, as a missing folder does.
    let modified = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
    let installed = modified(&dir.join("node_modules/.package-lock.json"));
    if installed.is_none() || modified(&dir.join("package-lock.json")) > installed {
        // `npm install` follows package-lock.json (exact versions); `npm ci` would reject a
        // lockfile written with omit-lockfile-registry-resolved, which some machines set.
        run(
            Command::new("npm").args(["install", "--no-audit", "--no-fund"]),
            "npm install",
            &dir,
        )?;
    }
    let manifest_path = dir.join("dist/manifest.json");
    let built = fs::metadata(&manifest_path).and_then(|m| m.modified()).ok();
    let sources = [
        dir.join("src"),
        dir.join("build.mjs"),
        dir.join("package-lock.json"),
    ]
    .iter()
    .filter_map(|p| newest(p))
    .max();
    if built.is_none() || sources.is_some_and(|s| Some(s) > built) {
        *report = Some(run(
            Command::new("node").arg("build.mjs"),
            "the islands build",
            &dir,
        )?);
    }
    let text = fs::read_to_string(&manifest_path).map_err(|e| {
        Diagnostic::new(
            &manifest_path,
            format!("cannot read the islands manifest: {e}"),
        )
    })?;
    let mut manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
        Diagnostic::new(
            &manifest_path,
            format!("the islands manifest is not valid: {e}"),
        )
    })?;
    manifest.dist = dir.join("dist");
    Ok(Some(manifest))
}

fn escape_attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The opening tag of an island's mount point; the template writes the no-JS fallback inside
/// and closes the `</div>`. An island the build does not know fails the page.
///
/// `when` is load, idle, visible, or intent: then `trigger` (a CSS selector) names the elements
/// whose first hover, focus or click loads the island; the runtime marks a clicked trigger busy
/// at once and the island answers that click once it has mounted.
pub fn opening_tag(
    manifest: Option<&Manifest>,
    name: &str,
    props: &serde_json::Value,
    when: &str,
    trigger: Option<&str>,
) -> Result<String, String> {
    if !["load", "idle", "visible", "intent"].contains(&when) {
        return Err(format!(
            "island `{name}`: `when` must be load, idle, visible or intent, not `{when}`"
        ));
    }
    let trigger = match (when, trigger) {
        ("intent", Some(t)) if !t.trim().is_empty() => {
            format!(" data-trigger=\"{}\"", escape_attr(t))
        }
        ("intent", _) => {
            return Err(format!(
                "island `{name}`: when=\"intent\" needs trigger=\"<CSS selector of the buttons that open it>\""
            ));
        }
        _ => String::new(),
    };
    let src = match manifest {
        Some(m) => match m.islands.get(name) {
            Some(entry) => Manifest::url(&entry.file),
            None => {
                let mut known: Vec<&String> = m.islands.keys().collect();
                known.sort();
                return Err(format!(
                    "there is no island `{name}` (islands/src/islands/ has {known:?})"
                ));
            }
        },
        // A site without islands/ still renders its fallbacks.
        None => String::new(),
    };
    let props = serde_json::to_string(props).unwrap_or_else(|_| "{}".into());
    Ok(format!(
        "<div class=\"island\" data-island=\"{}\" data-src=\"{}\" data-when=\"{when}\"{trigger} data-props=\"{}\">",
        escape_attr(name),
        escape_attr(&src),
        escape_attr(&props)
    ))
}

/// The islands a rendered page mounts, each with when it mounts (load when several tags of one
/// island disagree, so a page that needs it at once preloads it).
pub fn used_in(html: &str) -> BTreeMap<String, String> {
    let mut used = BTreeMap::new();
    for tag in html.split("data-island=\"").skip(1) {
        let Some(name) = tag.split('"').next() else {
            continue;
        };
        let attrs = tag.split('>').next().unwrap_or_default();
        let when = attrs
            .split("data-when=\"")
            .nth(1)
            .and_then(|w| w.split('"').next())
            .unwrap_or("load");
        let entry = used
            .entry(name.to_string())
            .or_insert_with(|| when.to_string());
        if when == "load" {
            *entry = "load".to_string();
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            runtime: "runtime-A.js".into(),
            page: None,
            page_imports: Vec::new(),
            page_messages: HashMap::new(),
            islands: HashMap::from([(
                "AuthPage".into(),
                IslandEntry {
                    file: "AuthPage-B.js".into(),
                    imports: vec!["chunk-C.js".into()],
                    messages: HashMap::from([
                        ("en".into(), vec!["chunk-EN.js".into()]),
                        ("ar".into(), vec!["chunk-AR.js".into()]),
                    ]),
                },
            )]),
            dist: PathBuf::new(),
        }
    }

    #[test]
    fn the_tag_carries_the_module_the_props_and_when() {
        let tag = opening_tag(
            Some(&manifest()),
            "AuthPage",
            &serde_json::json!({"a": "<b>"}),
            "idle",
            None,
        )
        .unwrap();
        assert!(
            tag.contains("data-src=\"/assets/islands/AuthPage-B.js\""),
            "{tag}"
        );
        assert!(tag.contains("data-when=\"idle\""));
        assert!(
            tag.contains("data-props=\"{&quot;a&quot;:&quot;&lt;b&gt;&quot;}\""),
            "{tag}"
        );
    }

    #[test]
    fn an_unknown_island_or_timing_is_an_error() {
        assert!(
            opening_tag(
                Some(&manifest()),
                "Nope",
                &serde_json::json!({}),
                "load",
                None
            )
            .unwrap_err()
            .contains("AuthPage")
        );
        assert!(
            opening_tag(
                Some(&manifest()),
                "AuthPage",
                &serde_json::json!({}),
                "soon",
                None
            )
            .is_err()
        );
        assert!(
            opening_tag(
                Some(&manifest()),
                "AuthPage",
                &serde_json::json!({}),
                "intent",
                None
            )
            .unwrap_err()
            .contains("trigger")
        );
    }

    #[test]
    fn an_intent_island_names_its_trigger() {
        let tag = opening_tag(
            Some(&manifest()),
            "AuthPage",
            &serde_json::json!({}),
            "intent",
            Some("[data-buy-package]"),
        )
        .unwrap();
        assert!(
            tag.contains("data-when=\"intent\" data-trigger=\"[data-buy-package]\""),
            "{tag}"
        );
    }

    #[test]
    fn islands_that_wait_get_no_preload() {
        for when in ["idle", "visible", "intent"] {
            let html = format!(
                r#"<head></head><div class="island" data-island="AuthPage" data-src="x" data-when="{when}" data-props="{{}}">"#
            );
            let used = used_in(&html);
            assert_eq!(used["AuthPage"], when);
            let tags = manifest().head_tags(&used, "en");
            assert!(
                tags.contains("src=\"/assets/islands/runtime-A.js\""),
                "{tags}"
            );
            assert!(!tags.contains("preload"), "{when}: {tags}");
        }
    }

    #[test]
    fn head_tags_preload_the_island_and_its_chunks() {
        let names = used_in(r#"<div data-island="AuthPage" data-src="x" data-when="load">"#);
        let tags = manifest().head_tags(&names, "en");
        assert!(tags.contains("src=\"/assets/islands/runtime-A.js\""));
        assert!(
            !tags.contains("modulepreload"),
            "nothing fetched before the first paint"
        );
        let list = tags
            .split("data-preload=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next();
        assert_eq!(
            list,
            Some(
                "/assets/islands/AuthPage-B.js /assets/islands/chunk-C.js /assets/islands/chunk-EN.js"
            ),
            "{tags}"
        );
        assert!(!tags.contains("chunk-AR.js"), "{tags}");
    }

    #[test]
    fn an_arabic_page_preloads_the_arabic_messages_only() {
        let names = used_in(r#"<div data-island="AuthPage" data-src="x" data-when="load">"#);
        let tags = manifest().head_tags(&names, "ar");
        assert!(tags.contains(" /assets/islands/chunk-AR.js "), "{tags}");
        assert!(!tags.contains("chunk-EN.js"), "{tags}");
    }
}
