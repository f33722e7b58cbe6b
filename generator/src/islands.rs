//! The React islands (`islands/`): `site build` makes sure they are built (installing the npm
//! packages on first use), publishes esbuild's already-hashed files under `/assets/islands/`,
//! and gives templates the `island(name, props, when)` function. A page that uses an island
//! gets the runtime and modulepreload links in its `<head>`; a page without islands gets no
//! script of theirs at all.

use std::collections::{BTreeSet, HashMap};
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
    /// Chunks the island imports (for modulepreload).
    pub imports: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    pub runtime: String,
    /// The public pages' script (menu, dialog, carousel, forms), when the build has one.
    #[serde(default)]
    pub page: Option<String>,
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

    /// The `<head>` tags for a page that uses `names`.
    pub fn head_tags(&self, names: &BTreeSet<String>) -> String {
        let mut files = BTreeSet::new();
        for name in names {
            if let Some(entry) = self.islands.get(name) {
                files.insert(entry.file.clone());
                files.extend(entry.imports.iter().cloned());
            }
        }
        let mut out = format!(
            "<script type=\"module\" src=\"{}\"></script>",
            Self::url(&self.runtime)
        );
        for f in files {
            out.push_str(&format!(
                "<link rel=\"modulepreload\" href=\"{}\">",
                Self::url(&f)
            ));
        }
        out
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
    if !dir.join("node_modules").is_dir() {
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
pub fn opening_tag(
    manifest: Option<&Manifest>,
    name: &str,
    props: &serde_json::Value,
    when: &str,
) -> Result<String, String> {
    if !["load", "idle", "visible"].contains(&when) {
        return Err(format!(
            "island `{name}`: `when` must be load, idle or visible, not `{when}`"
        ));
    }
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
        "<div class=\"island\" data-island=\"{}\" data-src=\"{}\" data-when=\"{when}\" data-props=\"{}\">",
        escape_attr(name),
        escape_attr(&src),
        escape_attr(&props)
    ))
}

/// The island names a rendered page mounts.
pub fn used_in(html: &str) -> BTreeSet<String> {
    html.split("data-island=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            runtime: "runtime-A.js".into(),
            page: None,
            islands: HashMap::from([(
                "AuthPage".into(),
                IslandEntry {
                    file: "AuthPage-B.js".into(),
                    imports: vec!["chunk-C.js".into()],
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
            opening_tag(Some(&manifest()), "Nope", &serde_json::json!({}), "load")
                .unwrap_err()
                .contains("AuthPage")
        );
        assert!(
            opening_tag(
                Some(&manifest()),
                "AuthPage",
                &serde_json::json!({}),
                "soon"
            )
            .is_err()
        );
    }

    #[test]
    fn head_tags_preload_the_island_and_its_chunks() {
        let names = used_in(r#"<div data-island="AuthPage" data-src="x">"#);
        let tags = manifest().head_tags(&names);
        assert!(tags.contains("src=\"/assets/islands/runtime-A.js\""));
        assert!(tags.contains("modulepreload\" href=\"/assets/islands/AuthPage-B.js\""));
        assert!(tags.contains("href=\"/assets/islands/chunk-C.js\""));
    }
}
