//! The yardstick for `bench/api.sh`: the smallest axum 0.8 server that answers a small JSON,
//! on the same runtime as the API (tokio's multi-threaded scheduler), so the benchmark can
//! say what share of "HTTP + JSON and nothing else" the API's dashboard read reaches.
//!
//! `cargo run --release -p api --example trivial_handler -- 18081`

use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

async fn hello() -> Json<Value> {
    Json(json!({ "status": "ok", "message": "hello" }))
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(18081);
    let app = Router::new().route("/", get(hello));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    axum::serve(listener, app).await
}
