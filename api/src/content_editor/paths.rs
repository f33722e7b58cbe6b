//! Which paths the editor may touch: only under `content/`, relative, no `..`, no hidden
//! component (`.git`), no symbolic link on the way, and only the kinds of file it edits.

use std::path::{Component, Path, PathBuf};

use crate::error::AppError;

/// The folder every path must be under.
pub const CONTENT: &str = "content";
/// Markdown and YAML: 1 MB, as `site check` warns above.
pub const TEXT_LIMIT: usize = 1024 * 1024;
/// Images: 10 MB.
pub const IMAGE_LIMIT: usize = 10 * 1024 * 1024;

/// What a path holds, by its extension (its bytes are checked too, [`check_bytes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `.md`, `.yaml`, `.yml`: UTF-8 text.
    Text,
    /// `.jpg`, `.jpeg`, `.png`, `.webp`, `.gif`.
    Image(ImageType),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageType {
    Jpeg,
    Png,
    Webp,
    Gif,
}

fn refused(path: &str, why: &str) -> AppError {
    AppError::field("path", &format!("`{path}` cannot be edited here: {why}"))
}

/// Checks `path` (as the editor sends it: `content/blog/x.md`) and returns it as a relative
/// path of normal components, and its kind.
pub fn parse(path: &str) -> Result<(PathBuf, Kind), AppError> {
    if path.is_empty() || path.len() > 512 || path.contains('\0') || path.contains('\\') {
        return Err(refused(path, "not a file path"));
    }
    let p = Path::new(path);
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::Normal(name) => {
                let name = name.to_str().ok_or_else(|| refused(path, "not UTF-8"))?;
                if name.starts_with('.') {
                    return Err(refused(path, "hidden files and .git are not content"));
                }
                out.push(name);
            }
            Component::CurDir => {}
            Component::ParentDir => return Err(refused(path, "`..` is not allowed")),
            Component::RootDir | Component::Prefix(_) => {
                return Err(refused(path, "absolute paths are not allowed"));
            }
        }
    }
    let mut parts = out.components();
    if parts.next().and_then(|c| c.as_os_str().to_str()) != Some(CONTENT) || parts.next().is_none()
    {
        return Err(refused(path, "only files under content/ are editable"));
    }
    let kind = kind_of(&out).ok_or_else(|| {
        refused(
            path,
            "only Markdown (.md), YAML (.yaml) and images (.jpg, .png, .webp, .gif) are editable",
        )
    })?;
    Ok((out, kind))
}

/// A folder the editor lists (`content/blog`): the same rules, without a file kind.
pub fn parse_folder(path: &str) -> Result<PathBuf, AppError> {
    let trimmed = path.trim_end_matches('/');
    let (p, _) = parse(&format!("{trimmed}/x.md"))?;
    Ok(p.parent().map(Path::to_path_buf).unwrap_or_default())
}

fn kind_of(path: &Path) -> Option<Kind> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "md" | "yaml" | "yml" => Kind::Text,
        "jpg" | "jpeg" => Kind::Image(ImageType::Jpeg),
        "png" => Kind::Image(ImageType::Png),
        "webp" => Kind::Image(ImageType::Webp),
        "gif" => Kind::Image(ImageType::Gif),
        _ => return None,
    })
}

/// The image type the bytes are, whatever the name says.
pub fn sniff(bytes: &[u8]) -> Option<ImageType> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(ImageType::Jpeg)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(ImageType::Png)
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some(ImageType::Webp)
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some(ImageType::Gif)
    } else {
        None
    }
}

/// Size and type: text is UTF-8 up to 1 MB, an image is what its name says by its bytes, up to
/// 10 MB.
pub fn check_bytes(path: &str, kind: Kind, bytes: &[u8]) -> Result<(), AppError> {
    match kind {
        Kind::Text => {
            if bytes.len() > TEXT_LIMIT {
                return Err(AppError::field(
                    "raw",
                    &format!("`{path}` is larger than 1 MB: split it into several files"),
                ));
            }
            if std::str::from_utf8(bytes).is_err() {
                return Err(AppError::field(
                    "raw",
                    &format!("`{path}` is not UTF-8 text"),
                ));
            }
        }
        Kind::Image(expected) => {
            if bytes.len() > IMAGE_LIMIT {
                return Err(AppError::field(
                    "content",
                    &format!("`{path}` is larger than 10 MB: resize the image first"),
                ));
            }
            match sniff(bytes) {
                Some(t) if t == expected => {}
                Some(_) => {
                    return Err(AppError::field(
                        "content",
                        &format!(
                            "`{path}`: the file's content is another image type than its name says"
                        ),
                    ));
                }
                None => {
                    return Err(AppError::field(
                        "content",
                        &format!("`{path}` is not a JPEG, PNG, WebP or GIF image"),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// `rel` inside `root`, refusing a symbolic link anywhere on the way (so nothing leads out of
/// the repository, whatever a link points at). The file itself need not exist.
pub fn resolve(root: &Path, rel: &Path) -> Result<PathBuf, AppError> {
    let mut at = root.to_path_buf();
    for c in rel.components() {
        at.push(c);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(refused(
                    &rel.display().to_string(),
                    "a symbolic link is on its way",
                ));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
            Err(e) => return Err(AppError::Internal(e.into())),
        }
    }
    Ok(root.join(rel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_content_files() {
        assert!(parse("content/blog/a.md").is_ok());
        assert!(parse("./content/static/images/a.jpg").is_ok());
        for bad in [
            "../content/blog/a.md",
            "content/../Cargo.toml",
            "/etc/passwd",
            "/content/blog/a.md",
            "content/.git/config",
            ".git/config",
            "themes/default/templates/base.html",
            "content/blog/a.sh",
            "content",
            "content\\blog\\a.md",
        ] {
            assert!(parse(bad).is_err(), "{bad} was accepted");
        }
    }

    #[test]
    fn images_by_their_bytes() {
        let png = b"\x89PNG\r\n\x1a\n0000";
        let (_, kind) = parse("content/static/a.png").unwrap();
        assert!(check_bytes("a", kind, png).is_ok());
        let (_, jpg) = parse("content/static/a.jpg").unwrap();
        assert!(check_bytes("a", jpg, png).is_err());
        assert!(check_bytes("a", kind, b"<svg onload=alert(1)>").is_err());
    }
}
