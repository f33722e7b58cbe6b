//! The coach's editor (issue 25): Decap CMS's `proxy` backend protocol, `POST
//! /api/admin/content/v1` with `{action, params}`, as `decap-server` answers it, over the
//! content repository (`content_editor`). Under `/api/admin/` rather than Decap's usual
//! `/api/v1`: the admin's routes, behind the admin's session and the same-origin check like
//! every other, and proxied by Netlify with the rest of `/api/*`.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::content_editor::git::Author;
use crate::content_editor::{ContentEditor, PushStatus, Write};
use crate::domain::Language;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppQuery, sends_json};
use crate::state::AppState;

use crate::content_editor::BODY_LIMIT;

fn editor(state: &AppState) -> Result<&Arc<ContentEditor>, AppError> {
    state.content.as_ref().ok_or_else(|| {
        AppError::NotFound("The content editor is not configured (CONTENT_REPO)".into())
    })
}

#[derive(Deserialize)]
struct ProxyRequest {
    action: String,
    #[serde(default)]
    params: Value,
}

/// The site's default language (English) has no suffix in its file names (`x.md`, with its
/// translation `x.ar.md`); Decap CMS names every language's file (`x.en.md`). The editor's
/// `.en.md` is the site's `.md`, both ways.
fn to_site(path: &str) -> String {
    match path.strip_suffix(".en.md") {
        Some(stem) => format!("{stem}.md"),
        None => path.to_string(),
    }
}

/// A listed file as the editor names it: `x.md` → `x.en.md`; a translation stays as it is.
fn to_editor(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let parts: Vec<&str> = name.split('.').collect();
    let translated = parts.len() >= 3 && parts[parts.len() - 2].len() == 2;
    match path.strip_suffix(".md") {
        Some(stem) if !translated => format!("{stem}.en.md"),
        _ => path.to_string(),
    }
}

/// The editor's JSON body, up to [`BODY_LIMIT`] (its strings may be longer than `AppJson`
/// allows: a post, an image in base64).
fn json_body<T: DeserializeOwned>(headers: &HeaderMap, body: &[u8]) -> Result<T, AppError> {
    if !sends_json(headers) {
        return Err(AppError::UnsupportedMediaType);
    }
    if body.len() > BODY_LIMIT {
        return Err(AppError::PayloadTooLarge);
    }
    serde_json::from_slice(body)
        .map_err(|e| AppError::BadRequest(format!("The body is not the editor's JSON: {e}")))
}

fn params<T: DeserializeOwned>(value: Value) -> Result<T, AppError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let field = e.path().to_string();
        AppError::field(&field, &format!("`{field}`: {}", e.inner()))
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FolderParams {
    folder: String,
    #[serde(default)]
    extension: String,
    #[serde(default = "one")]
    depth: u32,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize)]
struct FileRef {
    path: String,
    #[serde(default)]
    label: Option<String>,
}

#[derive(Deserialize)]
struct FilesParams {
    files: Vec<FileRef>,
}

#[derive(Deserialize)]
struct PathParams {
    path: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct CommitOptions {
    #[serde(default)]
    commit_message: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DataFile {
    path: String,
    raw: String,
    #[serde(default)]
    new_path: Option<String>,
}

#[derive(Deserialize)]
struct Asset {
    path: String,
    content: String,
    #[serde(default)]
    encoding: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PersistEntryParams {
    #[serde(default)]
    entry: Option<DataFile>,
    #[serde(default)]
    data_files: Option<Vec<DataFile>>,
    #[serde(default)]
    assets: Vec<Asset>,
    #[serde(default)]
    options: CommitOptions,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MediaParams {
    media_folder: String,
}

#[derive(Deserialize)]
struct PersistMediaParams {
    asset: Asset,
    #[serde(default)]
    options: CommitOptions,
}

#[derive(Deserialize)]
struct DeleteParams {
    path: String,
    #[serde(default)]
    options: CommitOptions,
}

#[derive(Deserialize)]
struct DeleteManyParams {
    paths: Vec<String>,
    #[serde(default)]
    options: CommitOptions,
}

fn commit_message(options: &CommitOptions, default: &str) -> String {
    let text: String = options
        .commit_message
        .as_deref()
        .unwrap_or(default)
        .chars()
        .filter(|c| *c == '\n' || !c.is_control())
        .take(500)
        .collect();
    if text.trim().is_empty() {
        default.to_string()
    } else {
        text
    }
}

fn decode(asset: &Asset) -> Result<Vec<u8>, AppError> {
    if asset.encoding.as_deref().is_some_and(|e| e != "base64") {
        return Err(AppError::field(
            "encoding",
            "assets are sent base64-encoded",
        ));
    }
    base64::engine::general_purpose::STANDARD
        .decode(asset.content.as_bytes())
        .map_err(|_| AppError::field("content", "not base64"))
}

/// Decap CMS's proxy protocol (see the module's documentation). Actions: `info`,
/// `entriesByFolder`, `entriesByFiles`, `getEntry`, `persistEntry`, `getMedia`, `getMediaFile`,
/// `persistMedia`, `deleteFile`, `deleteFiles`, `getDeployPreview`. A save refused by `site
/// check` answers 422 with its problems (file, line, field, fix); a save based on an older
/// version of a file 409.
#[utoipa::path(post, path = "/api/admin/content/v1", tag = "admin",
    request_body(content = Object, description = "`{action, params}` as Decap CMS's proxy backend sends it"),
    responses((status = 200, body = Object, description = "The action's answer, as decap-server gives it"),
              (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "No content repository is configured"),
              (status = 409, body = ErrorBody, description = "The file changed since this editor read it"),
              (status = 413, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "A path, size or type refused, or what `site check` refuses")))]
pub async fn proxy(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Response> {
    let request: ProxyRequest = json_body(&headers, &body)?;
    let editor = editor(&state)?.clone();
    let session = admin.session_id.as_str();
    let author = Author {
        name: &admin.full_name,
        email: &admin.email,
    };
    let answer = match request.action.as_str() {
        "info" => json!({
            "repo": editor.root().file_name().map(|n| n.to_string_lossy().into_owned()),
            "publish_modes": ["simple"],
            "type": "local_git",
            "status": editor.status(),
        }),
        "entriesByFolder" => {
            let p: FolderParams = params(request.params)?;
            let mut entries =
                editor.entries_by_folder(session, &p.folder, &p.extension, p.depth)?;
            for e in &mut entries {
                e.file.path = to_editor(&e.file.path);
            }
            json!(entries)
        }
        "entriesByFiles" => {
            let p: FilesParams = params(request.params)?;
            let asked: Vec<String> = p.files.iter().map(|f| f.path.clone()).collect();
            let mut entries = editor.entries(
                session,
                p.files
                    .into_iter()
                    .map(|f| (to_site(&f.path), f.label))
                    .collect(),
            )?;
            for (e, path) in entries.iter_mut().zip(asked) {
                e.file.path = path;
            }
            json!(entries)
        }
        "getEntry" => {
            let p: PathParams = params(request.params)?;
            let mut entries = editor.entries(session, vec![(to_site(&p.path), None)])?;
            let mut entry = entries.pop();
            if let Some(e) = &mut entry {
                e.file.path = p.path;
            }
            json!(entry)
        }
        "persistEntry" => {
            let p: PersistEntryParams = params(request.params)?;
            let files = match (p.data_files, p.entry) {
                (Some(files), _) if !files.is_empty() => files,
                (_, Some(entry)) => vec![entry],
                _ => return Err(AppError::field("dataFiles", "nothing to save")),
            };
            let mut writes = Vec::new();
            for f in files {
                let path = to_site(&f.path);
                match f.new_path.map(|n| to_site(&n)) {
                    Some(new) if new != path => {
                        writes.push(Write { path, bytes: None });
                        writes.push(Write {
                            path: new,
                            bytes: Some(f.raw.into_bytes()),
                        });
                    }
                    _ => writes.push(Write {
                        path,
                        bytes: Some(f.raw.into_bytes()),
                    }),
                }
            }
            for a in &p.assets {
                writes.push(Write {
                    path: a.path.clone(),
                    bytes: Some(decode(a)?),
                });
            }
            let message = commit_message(&p.options, "Edit content");
            json!(editor.save(session, author, writes, &message).await?)
        }
        "getMedia" => {
            let p: MediaParams = params(request.params)?;
            json!(editor.media(session, &p.media_folder)?)
        }
        "getMediaFile" => {
            let p: PathParams = params(request.params)?;
            json!(editor.media_one(session, &p.path)?)
        }
        "persistMedia" => {
            let p: PersistMediaParams = params(request.params)?;
            let bytes = decode(&p.asset)?;
            let message = commit_message(&p.options, "Upload an image");
            let path = p.asset.path.clone();
            editor
                .save(
                    session,
                    author,
                    vec![Write {
                        path: path.clone(),
                        bytes: Some(bytes),
                    }],
                    &message,
                )
                .await?;
            json!(editor.media_one(session, &path)?)
        }
        "deleteFile" => {
            let p: DeleteParams = params(request.params)?;
            let message = commit_message(&p.options, "Delete a file");
            editor
                .save(
                    session,
                    author,
                    vec![Write {
                        path: to_site(&p.path),
                        bytes: None,
                    }],
                    &message,
                )
                .await?;
            json!({ "message": format!("deleted file {}", p.path) })
        }
        "deleteFiles" => {
            let p: DeleteManyParams = params(request.params)?;
            let message = commit_message(&p.options, "Delete files");
            let writes = p
                .paths
                .iter()
                .map(|path| Write {
                    path: to_site(path),
                    bytes: None,
                })
                .collect();
            editor.save(session, author, writes, &message).await?;
            json!({ "message": format!("deleted files {}", p.paths.join(", ")) })
        }
        "getDeployPreview" => Value::Null,
        other => {
            return Err(AppError::field(
                "action",
                &format!("Unknown action `{other}` (the editorial workflow is off)"),
            ));
        }
    };
    Ok(Json(answer).into_response())
}

/// Whether every save has been pushed: the editor's page shows "pending" while a push waits
/// for its retry.
#[utoipa::path(get, path = "/api/admin/content/status", tag = "admin",
    responses((status = 200, body = PushStatus), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "No content repository is configured")))]
pub async fn status(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<PushStatus>> {
    Ok(Json(editor(&state)?.status()))
}

/// An entry as the editor holds it, before a save.
#[derive(Deserialize, ToSchema)]
pub struct PreviewRequest {
    /// The entry's file as the editor names it, e.g. `content/blog/first-post.en.md`.
    path: String,
    /// Its text as a save would write it.
    raw: String,
    /// The page to show when no page is made from this file (a data file's page, e.g.
    /// `/pricing` for `content/data/packages.yaml`).
    #[serde(default)]
    url: Option<String>,
}

/// A page as the generator renders it with the site's theme.
#[derive(Serialize, ToSchema)]
pub struct PreviewPage {
    /// Its address on the site.
    url: String,
    /// The whole HTML document.
    html: String,
}

/// The editor's preview: the page the site would show with this entry saved, rendered by the
/// generator with the site's own theme. Nothing is written; an entry `site check` would refuse
/// gets its message, as a save would.
#[utoipa::path(post, path = "/api/admin/content/preview", tag = "admin",
    request_body = PreviewRequest,
    responses((status = 200, body = PreviewPage), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "No content repository is configured, or no page shows this entry"),
              (status = 422, body = ErrorBody, description = "A path or size refused, or what `site check` refuses")))]
pub async fn preview(
    State(state): State<AppState>,
    _admin: AdminUser,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Json<PreviewPage>> {
    // A post is longer than the boundary's usual text limit (`AppJson`): its size is checked
    // as a save's is (Markdown up to 1 MB).
    let request: PreviewRequest = json_body(&headers, &body)?;
    let page = editor(&state)?
        .preview(&to_site(&request.path), request.raw, request.url)
        .await?;
    Ok(Json(PreviewPage {
        url: page.url,
        html: page.html,
    }))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ConfigQuery {
    /// The language of the editor's page: `ar` gives every label in Arabic (default `en`).
    #[param(value_type = Option<Language>)]
    lang: Option<Language>,
}

/// The editor's configuration (Decap CMS's `config.yml`, as JSON): the backend (this API), the
/// media folder, English and Arabic, and the collections, generated from the content model's
/// types (`content_model::editor`).
#[utoipa::path(get, path = "/api/admin/content/config", tag = "admin", params(ConfigQuery),
    responses((status = 200, body = Object, description = "Decap CMS's configuration"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "No content repository is configured"),
              (status = 422, body = ErrorBody)))]
pub async fn config(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppQuery(q): AppQuery<ConfigQuery>,
) -> AppResult<Json<Value>> {
    let editor = editor(&state)?;
    let collections = match q.lang {
        Some(Language::Ar) => {
            content_model::editor_ar::arabic(content_model::editor::collections())
        }
        _ => content_model::editor::collections(),
    };
    Ok(Json(json!({
        "load_config_file": false,
        "backend": { "name": "proxy", "proxy_url": crate::content_editor::PATH, "branch": editor.branch() },
        "publish_mode": "simple",
        "media_folder": "content/static/images",
        "public_folder": "/static/images",
        "site_url": state.config.public_base_url,
        "i18n": {
            "structure": "multiple_files",
            "locales": ["en", "ar"],
            "default_locale": "en",
            "omit_default_locale_from_filename": true,
        },
        "collections": collections,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_language_files_have_no_suffix_on_the_site() {
        assert_eq!(to_site("content/blog/a.en.md"), "content/blog/a.md");
        assert_eq!(to_site("content/blog/a.ar.md"), "content/blog/a.ar.md");
        assert_eq!(to_editor("content/blog/a.md"), "content/blog/a.en.md");
        assert_eq!(to_editor("content/blog/a.ar.md"), "content/blog/a.ar.md");
        assert_eq!(to_editor("content/blog/a.b.md"), "content/blog/a.b.en.md");
    }
}
