//! The OpenAPI 3.1 document, generated from the handlers' annotations, at `/api/openapi.json`.

use axum::routing::get;
use axum::{Json, Router};
use utoipa::OpenApi;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Coaching portal API",
        description = "Accounts, contact, newsletter, purchases, credits, bookings, admin; every error is `{ error: { code, message, fields? } }`."
    ),
    components(schemas(
        crate::error::ErrorBody,
        crate::error::ErrorDetail,
        crate::routes::common::Status
    ))
)]
pub struct ApiDoc;

/// The document as served: the routes as `routes::router` registers them (each handler's
/// annotation is both its route and its entry here, so no route is missing), completed with the
/// error answers that the boundary (`extract::input`) and the rate limiter give on every route
/// of a kind, so no route can forget to document them.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(crate::routes::router())
        .split_for_parts();
    for item in doc.paths.paths.values_mut() {
        if let Some(get) = &mut item.get {
            complete(get, false);
        }
        let writes = [
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ];
        for operation in writes.into_iter().flatten() {
            complete(operation, true);
        }
    }
    doc
}

/// Operations whose callers are limited per address or account (`rate_limit`).
const RATE_LIMITED: [&str; 4] = [
    "sign_up",
    "sign_in",
    "request_password_reset",
    "send_contact",
];

/// `changes_state`: the cross-site check (`startup::same_origin_only`) may refuse it with 403.
fn complete(operation: &mut Operation, changes_state: bool) {
    let mut add = |status: &str, description: &str| {
        operation
            .responses
            .responses
            .entry(status.to_string())
            .or_insert_with(|| error_response(description));
    };
    let json_body = operation
        .request_body
        .as_ref()
        .is_some_and(|b| b.content.contains_key("application/json"));
    if changes_state {
        add(
            "403",
            "Refused: not from the site's own origin (or not allowed for this user)",
        );
    }
    if json_body {
        add("400", "The body is not JSON of the expected shape");
        add("413", "The body is too large");
        add("415", "The body is not JSON");
        add("422", "A field is invalid (named in `fields`)");
    }
    let parameters = operation.parameters.as_deref().unwrap_or_default();
    if parameters
        .iter()
        .any(|p| p.parameter_in == ParameterIn::Query)
    {
        add(
            "400",
            "The query string is malformed (bad escape, repeated parameter)",
        );
        add("422", "A query parameter is invalid (named in `fields`)");
    }
    if parameters
        .iter()
        .any(|p| p.parameter_in == ParameterIn::Path)
    {
        add("422", "The path holds characters no id has");
    }
    if operation
        .operation_id
        .as_deref()
        .is_some_and(|id| RATE_LIMITED.contains(&id))
    {
        add(
            "429",
            "Too many attempts; `Retry-After` says when to try again",
        );
    }
}

fn error_response(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        )
        .build()
        .into()
}

pub fn router() -> Router<AppState> {
    static DOCUMENT: std::sync::OnceLock<utoipa::openapi::OpenApi> = std::sync::OnceLock::new();
    Router::new().route(
        "/api/openapi.json",
        get(|| async { Json(DOCUMENT.get_or_init(document).clone()) }),
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    /// utoipa keys schemas by name and keeps one of two types with the same name, silently
    /// documenting a route with another route's shape. Every `ToSchema` type must therefore
    /// have a name of its own (its type name, or its `#[schema(as = …)]`).
    #[test]
    fn every_schema_name_is_used_once() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let lines: Vec<&str> = text.lines().collect();
                for (i, line) in lines.iter().enumerate() {
                    if !(line.contains("derive(") && line.contains("ToSchema")) {
                        continue;
                    }
                    let mut alias = None;
                    for next in &lines[i + 1..] {
                        let next = next.trim();
                        if let Some(rest) = next.strip_prefix("#[schema(as = ") {
                            alias = Some(rest.trim_end_matches(")]").to_string());
                        }
                        let item = next
                            .strip_prefix("pub ")
                            .unwrap_or(next)
                            .strip_prefix("struct ")
                            .or_else(|| {
                                next.strip_prefix("pub enum ")
                                    .or(next.strip_prefix("enum "))
                            });
                        if let Some(item) = item {
                            let name: String = item
                                .chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect();
                            let name = alias.take().unwrap_or(name);
                            seen.entry(name)
                                .or_default()
                                .push(path.display().to_string());
                            break;
                        }
                    }
                }
            }
        }
        assert!(seen.len() > 20, "the scan found the schemas: {seen:?}");
        let twice: Vec<_> = seen.iter().filter(|(_, places)| places.len() > 1).collect();
        assert!(
            twice.is_empty(),
            "schema names used more than once: {twice:?}"
        );
    }

    #[test]
    fn every_json_body_documents_the_boundarys_answers() {
        let doc = serde_json::to_value(super::document()).unwrap();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                if op["requestBody"]["content"]["application/json"].is_object() {
                    for status in ["400", "413", "415", "422"] {
                        assert!(
                            op["responses"][status].is_object(),
                            "{method} {path}: {status}"
                        );
                    }
                }
            }
        }
        let sign_in = &doc["paths"]["/api/auth/sign-in"]["post"]["responses"];
        assert!(sign_in["429"].is_object(), "{sign_in}");
    }

    /// A query string's fields documented as path parameters (utoipa's `IntoParams` default)
    /// left clients and fuzzers guessing: every path parameter is in its path, and the rest
    /// are in the query.
    #[test]
    fn every_path_parameter_is_in_its_path() {
        let doc = serde_json::to_value(super::document()).unwrap();
        let mut query = 0;
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                for p in op["parameters"].as_array().into_iter().flatten() {
                    let name = p["name"].as_str().unwrap();
                    match p["in"].as_str() {
                        Some("path") => assert!(
                            path.contains(&format!("{{{name}}}")),
                            "{method} {path}: `{name}` is not in the path"
                        ),
                        Some("query") => query += 1,
                        other => panic!("{method} {path}: `{name}` in {other:?}"),
                    }
                }
            }
        }
        assert!(
            query >= 9,
            "the search, filter, range and token parameters are in the query"
        );
    }
}
