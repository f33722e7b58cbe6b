//! OpenTelemetry traces: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, a real `api serve` sends its
//! spans over OTLP/HTTP. The test plays the collector: a small HTTP server that decodes each
//! protobuf export as a collector would.

use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message;

use crate::support::fresh_database;

/// `api serve`, stopped when dropped.
struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `api serve` on a free port with the variables of a development run plus `env`.
fn api_serve(database_url: &str, env: &[(&str, &str)]) -> (Command, String) {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let mut command = Command::new(env!("CARGO_BIN_EXE_api"));
    command
        .arg("serve")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs([
            ("APP_ENV", "development"),
            ("PORT", port.to_string().as_str()),
            ("DATABASE_URL", database_url),
            ("PUBLIC_BASE_URL", base.as_str()),
            ("CONTENT_DIR", content.display().to_string().as_str()),
            ("RUST_LOG", "info"),
        ])
        .envs(env.iter().copied())
        .stdout(Stdio::null());
    (command, base)
}

#[tokio::test]
async fn with_an_otlp_endpoint_each_requests_span_reaches_the_collector() {
    let exports: Arc<Mutex<Vec<ExportTraceServiceRequest>>> = Default::default();
    let collector =
        axum::Router::new()
            .route(
                "/v1/traces",
                post(
                    |State(exports): State<Arc<Mutex<Vec<ExportTraceServiceRequest>>>>,
                     body: Bytes| async move {
                        let export =
                            ExportTraceServiceRequest::decode(body).expect("OTLP protobuf");
                        exports.lock().unwrap().push(export);
                        // An empty ExportTraceServiceResponse: everything accepted.
                        (
                            [("content-type", "application/x-protobuf")],
                            Vec::<u8>::new(),
                        )
                    },
                ),
            )
            .with_state(exports.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, collector).await });

    let (database_url, _dir) = fresh_database().await;
    let (mut command, base) = api_serve(
        &database_url,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
            ("OTEL_SERVICE_NAME", "coaching-api-under-test"),
            // Export every 100 ms instead of every 5 s.
            ("OTEL_BSP_SCHEDULE_DELAY", "100"),
        ],
    );
    let _api = Serving(
        command
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the api binary starts"),
    );
    let mut up = false;
    for _ in 0..200 {
        let health = reqwest::get(format!("{base}/api/health")).await;
        if health.is_ok_and(|r| r.status().is_success()) {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "the api did not start on {base}");
    // A route with an id: its span is named by the template.
    let r = reqwest::get(format!("{base}/api/payments/by-cart/ec_secret123"))
        .await
        .unwrap();
    assert_eq!(r.status(), 401);

    let wanted = "GET /api/payments/by-cart/{cart_id}";
    let mut found = None;
    for _ in 0..100 {
        found = exports.lock().unwrap().iter().find_map(|export| {
            export.resource_spans.iter().find_map(|rs| {
                let service = rs.resource.as_ref()?.attributes.iter().find_map(|a| {
                    match a.value.as_ref()?.value.as_ref()? {
                        Value::StringValue(s) if a.key == "service.name" => Some(s.clone()),
                        _ => None,
                    }
                })?;
                let span = rs
                    .scope_spans
                    .iter()
                    .flat_map(|s| &s.spans)
                    .find(|s| s.name == wanted)?;
                Some((service, span.clone()))
            })
        });
        if found.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (service, span) = found.unwrap_or_else(|| {
        let names: Vec<String> = exports
            .lock()
            .unwrap()
            .iter()
            .flat_map(|e| &e.resource_spans)
            .flat_map(|rs| &rs.scope_spans)
            .flat_map(|s| &s.spans)
            .map(|s| s.name.clone())
            .collect();
        panic!("no span `{wanted}` reached the collector; spans seen: {names:?}")
    });
    assert_eq!(service, "coaching-api-under-test");
    assert_eq!(span.kind, SpanKind::Server as i32);
    let route = span.attributes.iter().find(|a| a.key == "route");
    assert!(
        matches!(route.and_then(|a| a.value.as_ref()?.value.as_ref()),
            Some(Value::StringValue(r)) if r == "/api/payments/by-cart/{cart_id}"),
        "{:?}",
        span.attributes
    );
    assert!(span.end_time_unix_nano >= span.start_time_unix_nano);
}

#[tokio::test]
async fn an_otlp_protocol_the_api_does_not_speak_is_refused_at_start() {
    let (database_url, _dir) = fresh_database().await;
    let (mut command, _) = api_serve(
        &database_url,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
        ],
    );
    let out = command.output().expect("the api binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("OTEL_EXPORTER_OTLP_PROTOCOL `grpc` is not supported"),
        "{stderr}"
    );
}
