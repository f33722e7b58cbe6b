//! Responsive images, as Hugo and Zola offer them: every JPEG or PNG among the published files
//! (content/static/ and the theme's assets/) gets WebP copies at the widths of [`WIDTHS`] that
//! are not wider than the original, and templates print `<img>` through the `image` function,
//! which writes `srcset`, `sizes`, `width`/`height` (no layout shift) and lazy or priority
//! loading. Encoding is the slow part (about 0.1 s per photo and width), so every encoded file
//! is kept in a cache folder under its source's content hash: a rebuild only reads them back.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::sync::Arc;

use image::imageops::FilterType;
use rayon::prelude::*;
use tera::{Tera, Value};

use crate::diagnostics::Diagnostic;

/// The widths offered to the browser, in CSS pixels x density: a 390 px phone at 2x picks 800,
/// a 1366 px laptop showing a half-width photo picks 800 or 1200.
pub const WIDTHS: [u32; 6] = [320, 480, 640, 800, 1200, 1600];
/// Lossy WebP quality: visually clean for photographs at about a third of a JPEG's size.
const QUALITY: f32 = 78.0;
/// Part of every cache key: bump it when the encoding changes so stale files are not reused.
const PIPELINE: &str = "webp-q78-lanczos3-v1";
/// Where the encoded files live, relative to the project folder (git-ignored).
pub const CACHE_DIR: &str = ".cache/images";

/// One published image and its responsive variants.
#[derive(Debug, Clone)]
pub struct Image {
    /// The fingerprinted URL of the original file (also what `og:image` points at).
    pub url: String,
    pub width: u32,
    pub height: u32,
    /// `(width, url)` of each WebP copy, narrowest first; empty for SVG.
    pub variants: Vec<(u32, String)>,
}

impl Image {
    pub fn srcset(&self) -> String {
        self.variants
            .iter()
            .map(|(w, url)| format!("{url} {w}w"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The `src` for browsers that ignore `srcset`: the WebP copy closest to 800 px wide.
    pub fn fallback(&self) -> &str {
        self.variants
            .iter()
            .min_by_key(|(w, _)| w.abs_diff(800))
            .map_or(&self.url, |(_, url)| url)
    }
}

/// Every image of the site by the path authors write (`/static/images/portrait.jpg`).
#[derive(Debug, Default)]
pub struct Images {
    by_path: HashMap<String, Image>,
    /// How many WebP files this build encoded (the rest came from the cache).
    pub encoded: usize,
}

impl Images {
    pub fn get(&self, path: &str) -> Option<&Image> {
        self.by_path.get(path)
    }
}

fn is_raster(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".jpg", ".jpeg", ".png"].iter().any(|e| lower.ends_with(e))
}

/// One asset as the image pipeline reads it: its path under the site, its published URL, its
/// bytes. (The asset map gives these and takes the WebP copies back: `AssetMap::process_images`.)
pub struct Source<'a> {
    pub path: &'a str,
    pub url: &'a str,
    pub bytes: &'a [u8],
}

/// Makes the WebP copies of every raster source (from `cache` when they are there), named by
/// the source's hash, and measures SVGs for their `width` and `height`: the images, and the
/// copies `(url, bytes)` to publish.
#[allow(clippy::type_complexity)]
pub fn process(
    sources: &[Source<'_>],
    cache: &Path,
) -> Result<(Images, Vec<(String, Vec<u8>)>), Diagnostic> {
    fs::create_dir_all(cache).map_err(|e| {
        Diagnostic::new(cache, format!("cannot create the image cache folder: {e}"))
    })?;
    let results: Vec<Result<(String, Processed), Diagnostic>> = sources
        .par_iter()
        .filter(|a| is_raster(a.path) || a.path.ends_with(".svg"))
        .map(|a| {
            if a.path.ends_with(".svg") {
                let (width, height) = svg_size(a.bytes).unwrap_or((0, 0));
                let image = Image {
                    url: a.url.to_string(),
                    width,
                    height,
                    variants: Vec::new(),
                };
                let done = Processed {
                    image,
                    files: Vec::new(),
                    encoded: 0,
                };
                return Ok((a.path.to_string(), done));
            }
            let done = responsive(a.url, a.bytes, cache)
                .map_err(|e| Diagnostic::new(a.path, format!("cannot process the image: {e}")))?;
            Ok((a.path.to_string(), done))
        })
        .collect();
    let mut images = Images::default();
    let mut files = Vec::new();
    for result in results {
        let (path, done) = result?;
        files.extend(done.files);
        images.encoded += done.encoded;
        images.by_path.insert(path, done.image);
    }
    Ok((images, files))
}

/// The widths made for an image `width` pixels wide: every step of [`WIDTHS`] below it, and the
/// original width itself when it is between two steps (capped at the widest step).
pub fn widths_for(width: u32) -> Vec<u32> {
    let mut out: Vec<u32> = WIDTHS.iter().copied().filter(|&w| w < width).collect();
    let top = width.min(*WIDTHS.last().expect("not empty"));
    if out.last() != Some(&top) {
        out.push(top);
    }
    out
}

/// One source image, done: its description, its WebP copies `(url, bytes)`, and how many of
/// them were encoded now rather than read from the cache.
struct Processed {
    image: Image,
    files: Vec<(String, Vec<u8>)>,
    encoded: usize,
}

fn responsive(url: &str, bytes: &[u8], cache: &Path) -> anyhow::Result<Processed> {
    let format = image::guess_format(bytes)?;
    let (width, height) =
        image::ImageReader::with_format(std::io::Cursor::new(bytes), format).into_dimensions()?;
    let key = blake3::hash(&[PIPELINE.as_bytes(), bytes].concat()).to_hex();
    let stem = url.rsplit_once('.').map_or(url, |(s, _)| s);
    let mut decoded = None;
    let mut files = Vec::new();
    let mut variants = Vec::new();
    let mut encoded = 0;
    for w in widths_for(width) {
        let h = ((u64::from(height) * u64::from(w) + u64::from(width) / 2) / u64::from(width))
            .max(1) as u32;
        let cached = cache.join(format!("{}-{w}.webp", &key[..24]));
        let webp = match fs::read(&cached) {
            Ok(b) => b,
            Err(_) => {
                if decoded.is_none() {
                    decoded = Some(image::load_from_memory_with_format(bytes, format)?);
                }
                let source = decoded.as_ref().expect("just decoded");
                let resized = if w == width {
                    source.clone()
                } else {
                    source.resize_exact(w, h, FilterType::Lanczos3)
                };
                let rgb = image::DynamicImage::ImageRgb8(resized.to_rgb8());
                let webp = webp::Encoder::from_image(&rgb)
                    .map_err(|e| anyhow::anyhow!("{e}"))?
                    .encode(QUALITY)
                    .to_vec();
                // Written under a temporary name first: a build killed half-way never
                // leaves a truncated file that a later build would publish.
                // Unique per write: two builds (or two threads of one) may encode the same
                // image at once, and each renames its own file into place.
                static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let tmp = cached.with_extension(format!("tmp{}-{n}", std::process::id()));
                fs::write(&tmp, &webp)?;
                fs::rename(&tmp, &cached)?;
                encoded += 1;
                webp
            }
        };
        let variant_url = format!("{stem}-{w}.webp");
        files.push((variant_url.clone(), webp));
        variants.push((w, variant_url));
    }
    let image = Image {
        url: url.to_string(),
        width,
        height,
        variants,
    };
    Ok(Processed {
        image,
        files,
        encoded,
    })
}

/// `width`/`height` of an SVG from its attributes, or from its `viewBox`.
fn svg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let tag = &text[text.find("<svg")?..];
    let tag = &tag[..tag.find('>')?];
    let attr = |name: &str| -> Option<&str> {
        let i = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[i..].split('"').next()
    };
    let number = |s: &str| s.trim_end_matches("px").parse::<f64>().ok();
    if let (Some(w), Some(h)) = (
        attr("width").and_then(number),
        attr("height").and_then(number),
    ) {
        return Some((w.round() as u32, h.round() as u32));
    }
    let vb: Vec<f64> = attr("viewBox")?
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    (vb.len() == 4).then(|| (vb[2].round() as u32, vb[3].round() as u32))
}

fn arg<'a>(args: &'a HashMap<String, Value>, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}

fn lookup<'a>(images: &'a Images, args: &HashMap<String, Value>) -> tera::Result<&'a Image> {
    let src = arg(args, "src").ok_or_else(|| tera::Error::msg("`image` needs src=\"…\""))?;
    images.get(src).ok_or_else(|| {
        tera::Error::msg(format!(
            "`{src}` is not a JPEG, PNG or SVG of content/static/ or of the theme's assets/"
        ))
    })
}

/// The `<img>` element for `image(src, alt, sizes="100vw", class="", priority=false)`.
/// `priority=true` is for the one image at the top of a page (its hero): loaded at once with
/// `fetchpriority="high"`; every other image loads lazily as it nears the viewport.
pub fn img_tag(image: &Image, args: &HashMap<String, Value>) -> String {
    let alt = tera::escape_html(arg(args, "alt").unwrap_or(""));
    let priority = args
        .get("priority")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut tag = if image.variants.is_empty() {
        format!("<img src=\"{}\"", image.url)
    } else {
        let sizes = tera::escape_html(arg(args, "sizes").unwrap_or("100vw"));
        format!(
            "<img src=\"{}\" srcset=\"{}\" sizes=\"{sizes}\"",
            image.fallback(),
            image.srcset()
        )
    };
    if image.width > 0 {
        tag.push_str(&format!(
            " width=\"{}\" height=\"{}\"",
            image.width, image.height
        ));
    }
    tag.push_str(&format!(" alt=\"{alt}\""));
    if let Some(class) = arg(args, "class").filter(|c| !c.is_empty()) {
        tag.push_str(&format!(" class=\"{}\"", tera::escape_html(class)));
    }
    if priority {
        tag.push_str(" loading=\"eager\" fetchpriority=\"high\">");
    } else {
        tag.push_str(" loading=\"lazy\" decoding=\"async\">");
    }
    tag
}

/// `<link rel="preload">` for a page's hero image, for its `{% block head %}`: the browser
/// starts the download before it has laid out the page.
pub fn preload_tag(image: &Image, args: &HashMap<String, Value>) -> String {
    if image.variants.is_empty() {
        return format!(
            "<link rel=\"preload\" as=\"image\" href=\"{}\" fetchpriority=\"high\">",
            image.url
        );
    }
    let sizes = tera::escape_html(arg(args, "sizes").unwrap_or("100vw"));
    format!(
        "<link rel=\"preload\" as=\"image\" type=\"image/webp\" href=\"{}\" imagesrcset=\"{}\" imagesizes=\"{sizes}\" fetchpriority=\"high\">",
        image.fallback(),
        image.srcset()
    )
}

/// Registers `image(src, alt, sizes, class, priority)` and `image_preload(src, sizes)`.
pub fn register(tera: &mut Tera, images: Arc<Images>) {
    let for_img = images.clone();
    tera.register_function("image", move |args: &HashMap<String, Value>| {
        lookup(&for_img, args).map(|i| Value::String(img_tag(i, args)))
    });
    tera.register_function("image_preload", move |args: &HashMap<String, Value>| {
        lookup(&images, args).map(|i| Value::String(preload_tag(i, args)))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_never_upscale_and_include_the_original_between_steps() {
        assert_eq!(widths_for(1000), vec![320, 480, 640, 800, 1000]);
        assert_eq!(widths_for(800), vec![320, 480, 640, 800]);
        assert_eq!(widths_for(200), vec![200]);
        assert_eq!(widths_for(4000), vec![320, 480, 640, 800, 1200, 1600]);
    }

    #[test]
    fn svg_size_comes_from_attributes_or_the_view_box() {
        assert_eq!(
            svg_size(br#"<svg xmlns="x" width="400" height="300">"#),
            Some((400, 300))
        );
        assert_eq!(
            svg_size(br#"<svg viewBox="0 0 560 680" xmlns="x">"#),
            Some((560, 680))
        );
        assert_eq!(svg_size(b"<html>"), None);
    }
}
