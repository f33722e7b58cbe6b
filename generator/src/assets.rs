//! Static files: the theme's `assets/` (served at `/assets/…`) and `content/static/` (served at
//! `/static/…`). Every file gets a content hash in its name, so the CDN can cache all of
//! `/assets/` and `/static/` for a year and an edited file is fetched anew at once.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use walkdir::WalkDir;

use crate::diagnostics::Diagnostic;

/// One file to publish.
#[derive(Debug, Clone)]
pub struct Asset {
    /// The path authors write, e.g. `/static/logos/acme.svg`.
    pub path: String,
    /// The published path, e.g. `/static/logos/acme.3f9a2c71d0.svg`.
    pub url: String,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, Default)]
pub struct AssetMap {
    by_path: HashMap<String, usize>,
    pub assets: Vec<Asset>,
    /// The photos' responsive sizes and the SVGs' dimensions (see `images`), for Markdown.
    pub images: std::sync::Arc<crate::images::Images>,
}

impl AssetMap {
    /// Loads and fingerprints every file under `theme_assets` and `static_dir`.
    pub fn load(theme_assets: &Path, static_dir: &Path) -> Result<AssetMap, Diagnostic> {
        let mut files: Vec<(PathBuf, String)> = Vec::new();
        for (dir, prefix) in [(theme_assets, "/assets"), (static_dir, "/static")] {
            for entry in WalkDir::new(dir).sort_by_file_name().into_iter().flatten() {
                if entry.file_type().is_file() {
                    let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    files.push((entry.path().to_path_buf(), format!("{prefix}/{rel}")));
                }
            }
        }
        let read: Result<Vec<(String, Vec<u8>)>, Diagnostic> = files
            .par_iter()
            .map(|(file, path)| {
                fs::read(file)
                    .map(|b| (path.clone(), b))
                    .map_err(|e| Diagnostic::new(file, format!("cannot read the file: {e}")))
            })
            .collect();
        let mut map = AssetMap::default();
        let (css, other): (Vec<_>, Vec<_>) = read?
            .into_iter()
            .partition(|(path, _)| path.ends_with(".css"));
        for (path, bytes) in other {
            map.insert(path, bytes);
        }
        // Stylesheets last: their url(...) references are rewritten to the hashed names first,
        // so a changed icon changes the stylesheet's hash too.
        let sheets: HashMap<String, String> = css
            .iter()
            .map(|(path, bytes)| (path.clone(), String::from_utf8_lossy(bytes).into_owned()))
            .collect();
        for (path, _) in &css {
            let text = inline_imports(path, &sheets, 0).map_err(|e| {
                let file = files.iter().find(|(_, p)| p == path).map(|(f, _)| f.as_path());
                Diagnostic::new(file.unwrap_or(theme_assets), e)
                    .hint("an @import names another of the theme's stylesheets by its address, e.g. @import \"/assets/css/islands.css\";")
            })?;
            let rewritten = map.rewrite_css_urls(&text);
            map.insert(path.clone(), rewritten.into_bytes());
        }
        Ok(map)
    }

    fn insert(&mut self, path: String, bytes: Vec<u8>) {
        let url = fingerprinted_url(&path, &bytes);
        self.by_path.insert(path.clone(), self.assets.len());
        self.assets.push(Asset { path, url, bytes });
    }

    /// Adds a file whose name already carries its content hash (esbuild's output), as is.
    /// Runs the image pipeline over these assets ([`crate::images::process`]): its WebP copies
    /// are added under their hashed names, and the images (sizes, variants) are kept for
    /// Markdown and returned.
    pub fn process_images(
        &mut self,
        cache: &Path,
    ) -> Result<std::sync::Arc<crate::images::Images>, Diagnostic> {
        let sources: Vec<crate::images::Source<'_>> = self
            .assets
            .iter()
            .map(|a| crate::images::Source {
                path: &a.path,
                url: &a.url,
                bytes: &a.bytes,
            })
            .collect();
        let (images, files) = crate::images::process(&sources, cache)?;
        for (url, bytes) in files {
            self.add_verbatim(&url, bytes);
        }
        self.images = std::sync::Arc::new(images);
        Ok(self.images.clone())
    }

    pub fn add_verbatim(&mut self, path: &str, bytes: Vec<u8>) {
        self.by_path.insert(path.to_string(), self.assets.len());
        self.assets.push(Asset {
            path: path.to_string(),
            url: path.to_string(),
            bytes,
        });
    }

    /// Adds a generated file (e.g. a bundled script) under `path`, fingerprinted like the rest.
    pub fn add(&mut self, path: &str, bytes: Vec<u8>) -> &str {
        self.insert(path.to_string(), bytes);
        &self.assets.last().expect("just pushed").url
    }

    /// The published URL of `path`, if it names an asset. A `?query` or `#fragment` is kept.
    pub fn lookup(&self, path: &str) -> Option<String> {
        let cut = path.find(['?', '#']).unwrap_or(path.len());
        let (base, rest) = path.split_at(cut);
        self.by_path
            .get(base)
            .map(|&i| format!("{}{rest}", self.assets[i].url))
    }

    fn rewrite_css_urls(&self, css: &str) -> String {
        let mut out = String::with_capacity(css.len());
        let mut rest = css;
        while let Some(i) = rest.find("url(") {
            out.push_str(&rest[..i + 4]);
            rest = &rest[i + 4..];
            let end = rest.find(')').unwrap_or(rest.len());
            let raw = rest[..end].trim();
            let unquoted = raw.trim_matches(|c| c == '"' || c == '\'');
            match self.lookup(unquoted) {
                Some(url) => out.push_str(&format!("\"{url}\"")),
                None => out.push_str(&rest[..end]),
            }
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    }
}

/// A stylesheet with its `@import "/assets/…";` lines replaced by the named stylesheets' text
/// (theirs in turn, a few levels deep): a page that needs several of the theme's stylesheets
/// fetches one file, where each stylesheet of its own would be a render-blocking round trip on
/// a phone, and the theme still keeps them apart to edit. Only whole lines that start with
/// `@import` and name a stylesheet of the theme are inlined; any other `@import` is left alone.
fn inline_imports(
    path: &str,
    sheets: &HashMap<String, String>,
    depth: usize,
) -> Result<String, String> {
    let text = &sheets[path];
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let target = line
            .trim()
            .strip_prefix("@import")
            .and_then(|rest| rest.trim().strip_suffix(';'))
            .map(|t| t.trim().trim_matches(|c| c == '"' || c == '\''))
            .filter(|t| t.starts_with("/assets/"));
        match target {
            Some(target) => {
                if !sheets.contains_key(target) {
                    return Err(format!(
                        "{path} imports {target}, which is not a stylesheet of the theme"
                    ));
                }
                if depth >= 4 {
                    return Err(format!(
                        "{path}: @import nested more than 4 deep (a stylesheet importing itself?)"
                    ));
                }
                out.push_str(&inline_imports(target, sheets, depth + 1)?);
                if !out.ends_with('\n') {
                    out.push('\n');
                }
            }
            None => out.push_str(line),
        }
    }
    Ok(out)
}

/// `/assets/css/site.css` + bytes → `/assets/css/site.<10 hex>.css`.
fn fingerprinted_url(path: &str, bytes: &[u8]) -> String {
    let hash = blake3::hash(bytes).to_hex();
    match path.rsplit_once('.') {
        Some((stem, ext)) if !stem.ends_with('/') && !ext.contains('/') => {
            format!("{stem}.{}.{ext}", &hash[..10])
        }
        _ => format!("{path}.{}", &hash[..10]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_gets_a_content_hash_before_its_extension() {
        let a = fingerprinted_url("/static/logo.svg", b"<svg/>");
        assert!(
            a.starts_with("/static/logo.") && a.ends_with(".svg") && a.len() == 27,
            "{a}"
        );
        assert_ne!(a, fingerprinted_url("/static/logo.svg", b"<svg></svg>"));
        assert!(fingerprinted_url("/static/brochure.pdf", b"%PDF").ends_with(".pdf"));
        assert!(fingerprinted_url("/static/LICENSE", b"x").starts_with("/static/LICENSE."));
    }

    #[test]
    fn a_stylesheet_imports_the_themes_stylesheets_inline() {
        let sheets: HashMap<String, String> = [
            (
                "/assets/css/app.css",
                "@import \"/assets/css/a.css\";\n@import '/assets/css/b.css';\n.app{}\n",
            ),
            ("/assets/css/a.css", ".a{}"),
            (
                "/assets/css/b.css",
                "@import url(https://fonts.example/x.css);\n.b{}\n",
            ),
            (
                "/assets/css/loop.css",
                "@import \"/assets/css/loop.css\";\n",
            ),
            (
                "/assets/css/bad.css",
                "@import \"/assets/css/missing.css\";\n",
            ),
        ]
        .into_iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        assert_eq!(
            inline_imports("/assets/css/app.css", &sheets, 0).unwrap(),
            ".a{}\n@import url(https://fonts.example/x.css);\n.b{}\n.app{}\n"
        );
        let missing = inline_imports("/assets/css/bad.css", &sheets, 0).unwrap_err();
        assert!(missing.contains("/assets/css/missing.css"), "{missing}");
        let looped = inline_imports("/assets/css/loop.css", &sheets, 0).unwrap_err();
        assert!(looped.contains("more than 4 deep"), "{looped}");
    }

    #[test]
    fn stylesheet_urls_point_at_hashed_files() {
        let mut map = AssetMap::default();
        map.insert("/assets/icons/visa.svg".into(), b"<svg/>".to_vec());
        let css =
            map.rewrite_css_urls("a{background:url('/assets/icons/visa.svg')} b{c:url(x.png)}");
        assert!(css.contains(&format!(
            "url(\"{}\")",
            map.lookup("/assets/icons/visa.svg").unwrap()
        )));
        assert!(css.contains("url(x.png)"));
    }
}
