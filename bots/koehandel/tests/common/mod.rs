//! Test helpers: scripted player endpoints over real HTTP.
#![allow(dead_code)]

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a scripted endpoint answers.
#[derive(Clone, Debug)]
pub enum Act {
    /// 200 with this body.
    Body(String),
    /// This status, empty body.
    Status(u16),
    /// 200 with these raw bytes.
    Bytes(Vec<u8>),
    /// Sleep, then 200 with the body.
    Slow(Duration, String),
}

/// The decision function: (seat, global request index, query) → action.
pub type Script = dyn Fn(usize, usize, &str) -> Act + Send + Sync;

/// Shared record of every request, in arrival order: (seat, query).
#[derive(Default)]
pub struct Recorder {
    pub requests: Mutex<Vec<(usize, String)>>,
}

struct Endpoint {
    seat: usize,
    rec: Arc<Recorder>,
    script: Arc<Script>,
}

async fn handle(State(ep): State<Arc<Endpoint>>, RawQuery(q): RawQuery) -> Response {
    let q = q.unwrap_or_default();
    let k = {
        let mut r = ep.rec.requests.lock().unwrap();
        r.push((ep.seat, q.clone()));
        r.len() - 1
    };
    match (ep.script)(ep.seat, k, &q) {
        Act::Body(b) => b.into_response(),
        Act::Status(s) => StatusCode::from_u16(s).unwrap().into_response(),
        Act::Bytes(b) => b.into_response(),
        Act::Slow(d, b) => {
            tokio::time::sleep(d).await;
            b.into_response()
        }
    }
}

/// Starts four scripted endpoints (one per seat) sharing one recorder; returns their URLs.
pub async fn scripted(script: Arc<Script>) -> (Vec<String>, Arc<Recorder>) {
    let rec = Arc::new(Recorder::default());
    let mut urls = Vec::new();
    for seat in 0..4 {
        let ep = Arc::new(Endpoint {
            seat,
            rec: rec.clone(),
            script: script.clone(),
        });
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        urls.push(format!("http://{}/player{seat}", l.local_addr().unwrap()));
        let app = Router::new().fallback(handle).with_state(ep);
        tokio::spawn(async move { axum::serve(l, app).await.ok() });
    }
    (urls, rec)
}

/// The query without its `market=..&id=..&` prefix, and the id.
pub fn strip(q: &str) -> (u64, String) {
    let mut parts = q.splitn(3, '&');
    let _market = parts.next();
    let id = parts
        .next()
        .and_then(|p| p.strip_prefix("id="))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (id, parts.next().unwrap_or("").to_string())
}

/// A URL nobody listens on.
pub fn dead_url() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let a = l.local_addr().unwrap();
    drop(l);
    format!("http://{a}/")
}
