//! Logs: human-readable in development, JSON lines in production. `RUST_LOG` filters.
//!
//! Traces: with `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) set, the
//! `api` binary also sends its spans (each request, named by its route's template) to that
//! OpenTelemetry collector over OTLP/HTTP (protobuf), as `OTEL_SERVICE_NAME` (`api` by default).
//! The exporter reads the other standard `OTEL_*` variables itself (headers, timeout, batch
//! delay). Without an endpoint nothing of OpenTelemetry is built: no layer, no thread, no cost.

use anyhow::{Context, bail};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::layer::{Layered, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer, Registry};

use crate::configuration::Environment;

/// Logs only (the devserver's).
pub fn init(environment: Environment) {
    let _ = subscriber(environment, None).try_init();
}

/// Logs, and traces when an OTLP endpoint is set: the `api` binary's. Call it outside the Tokio
/// runtime and keep what it returns until the runtime has stopped: dropping it sends the spans
/// still waiting.
pub fn init_with_traces(environment: Environment) -> anyhow::Result<Traces> {
    let lookup = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let provider = tracer_provider(&lookup)?;
    let _ = subscriber(environment, provider.as_ref()).try_init();
    if provider.is_some() {
        tracing::info!("traces are sent to the OTLP endpoint");
    }
    Ok(Traces(provider))
}

/// The trace pipeline, if one was started; flushed and stopped when dropped.
pub struct Traces(Option<SdkTracerProvider>);

impl Drop for Traces {
    fn drop(&mut self) {
        if let Some(provider) = self.0.take()
            && let Err(e) = provider.shutdown()
        {
            eprintln!("traces: the last spans could not be sent: {e}");
        }
    }
}

type Filtered = Layered<EnvFilter, Registry>;

fn subscriber(
    environment: Environment,
    traces: Option<&SdkTracerProvider>,
) -> impl SubscriberInitExt + use<> {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let mut layers: Vec<Box<dyn Layer<Filtered> + Send + Sync>> = vec![match environment {
        Environment::Production => tracing_subscriber::fmt::layer()
            .json()
            .flatten_event(true)
            .boxed(),
        Environment::Development => tracing_subscriber::fmt::layer().compact().boxed(),
    }];
    if let Some(provider) = traces {
        layers.push(
            tracing_opentelemetry::layer()
                .with_tracer(provider.tracer("api"))
                .boxed(),
        );
    }
    tracing_subscriber::registry().with(filter).with(layers)
}

/// The tracer provider the `OTEL_*` variables ask for (`lookup` reads them), or `None`.
fn tracer_provider(
    lookup: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Option<SdkTracerProvider>> {
    let endpoint = lookup("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .or_else(|| lookup("OTEL_EXPORTER_OTLP_ENDPOINT"));
    let disabled = lookup("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"));
    if endpoint.is_none() || disabled {
        return Ok(None);
    }
    let protocol = lookup("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        .or_else(|| lookup("OTEL_EXPORTER_OTLP_PROTOCOL"));
    if let Some(p) = protocol.filter(|p| p != "http/protobuf") {
        bail!(
            "OTEL_EXPORTER_OTLP_PROTOCOL `{p}` is not supported: the API sends traces as http/protobuf \
             (a collector's port 4318)"
        );
    }
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .build()
        .context("the OTLP trace exporter (OTEL_EXPORTER_OTLP_ENDPOINT) could not start")?;
    let mut resource = Resource::builder();
    let named = lookup("OTEL_SERVICE_NAME").is_some()
        || lookup("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|a| a.contains("service.name="));
    if !named {
        resource = resource.with_service_name("api");
    }
    Ok(Some(
        SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource.build())
            .build(),
    ))
}
