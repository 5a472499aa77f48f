//! The router of `kibitz serve` and the state its handlers share.

use super::store::{Key, Store};
use super::{game_page, html, index, live, plots, standings};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

/// What every handler sees: the records and the generation counter of `live`.
#[derive(Clone)]
pub struct AppState {
    store: Arc<Mutex<Store>>,
    /// Bumped by `live::watch` whenever a record file changed.
    pub generation: Arc<watch::Sender<u64>>,
}

impl AppState {
    /// The state over the record folders `dirs` (read once now).
    pub fn new(dirs: Vec<PathBuf>) -> AppState {
        AppState {
            store: Arc::new(Mutex::new(Store::new(dirs))),
            generation: Arc::new(watch::Sender::new(0)),
        }
    }

    /// The records, locked (a panic elsewhere never poisons the viewer for good).
    pub fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The generation the pages are drawn at.
    pub fn gen(&self) -> u64 {
        *self.generation.borrow()
    }
}

/// Every route.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index_page))
        .route("/game/{dir}/{file}/{n}", get(game))
        .route("/game/{dir}/{file}/{n}/data.json", get(game_data))
        .route("/match/{dir}/{file}", get(match_page))
        .route("/standings/{dir}", get(standings_page))
        .route("/events", get(live::events))
        .fallback(|| async { not_found("no such page") })
        .with_state(state)
}

/// A 404 page with `msg`.
pub fn not_found(msg: &str) -> Response {
    error(StatusCode::NOT_FOUND, msg)
}

/// An error page: `status` and the message (escaped).
pub fn error(status: StatusCode, msg: &str) -> Response {
    let body = format!(
        "<h1>{}</h1><p class=\"error\">{}</p><p><a href=\"/\">all games</a></p>",
        status,
        html::esc(msg)
    );
    (status, Html(html::page(status.as_str(), &body, ""))).into_response()
}

async fn index_page(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let gen = state.gen();
    Html(index::render(
        &state.store(),
        &index::Filter::from_query(&q),
        gen,
    ))
    .into_response()
}

async fn game(
    State(state): State<AppState>,
    Path((dir, file, n)): Path<(usize, String, usize)>,
) -> Response {
    with_record(&state, Key { dir, file }, n, |key, rec, gen| {
        Html(game_page::render(key, n, rec, gen)).into_response()
    })
}

async fn game_data(
    State(state): State<AppState>,
    Path((dir, file, n)): Path<(usize, String, usize)>,
) -> Response {
    with_record(&state, Key { dir, file }, n, |_, rec, gen| {
        (
            [(header::CONTENT_TYPE, "application/json")],
            game_page::data(rec, gen).to_string(),
        )
            .into_response()
    })
}

/// Game `n` of `key`'s file answered by `reply(key, record, generation)`, or 404.
fn with_record(
    state: &AppState,
    key: Key,
    n: usize,
    reply: impl FnOnce(&Key, &serde_json::Value, u64) -> Response,
) -> Response {
    let gen = state.gen();
    let store = state.store();
    match store.record(&key, n) {
        Some(rec) => reply(&key, rec, gen),
        None => not_found(&format!("no game {n} in {}", key.file)),
    }
}

async fn match_page(
    State(state): State<AppState>,
    Path((dir, file)): Path<(usize, String)>,
) -> Response {
    let key = Key { dir, file };
    let store = state.store();
    match store.files.get(&key) {
        Some(f) => Html(plots::match_page(&key, &f.records)).into_response(),
        None => not_found(&format!("no record file {}", key.file)),
    }
}

async fn standings_page(State(state): State<AppState>, Path(dir): Path<usize>) -> Response {
    let gen = state.gen();
    let store = state.store();
    match store.dirs().get(dir) {
        Some(d) => Html(standings::render(
            &store,
            dir,
            &d.display().to_string(),
            gen,
        ))
        .into_response(),
        None => not_found(&format!("no records folder {dir}")),
    }
}
