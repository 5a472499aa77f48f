//! The market's HTTP client: one GET per message, a hard deadline that covers connecting,
//! sending and reading the whole answer, and a cap on the answer's size.

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Limited};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use std::time::{Duration, Instant};

/// Largest answer body we read; longer answers are unusable.
pub const MAX_BODY: usize = 4096;

/// Why a request produced no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// The URL cannot be requested (not `http://host[:port]/...`).
    #[error("bad url: {0}")]
    BadUrl(String),
    /// The deadline passed.
    #[error("timeout")]
    Timeout,
    /// Connecting or sending failed.
    #[error("connection error: {0}")]
    Connect(String),
    /// The answer's status was not 200.
    #[error("status {0}")]
    Status(u16),
    /// The body was too long, broken or not UTF-8.
    #[error("unusable body: {0}")]
    Body(String),
}

/// A shared, pooled HTTP client (cheap to clone).
#[derive(Clone)]
pub struct Caller {
    client: Client<HttpConnector, Empty<Bytes>>,
    deadline: Duration,
    max_body: usize,
}

impl Caller {
    /// A client whose every call ends within `deadline`.
    pub fn new(deadline: Duration) -> Caller {
        Caller::with_limit(deadline, MAX_BODY)
    }

    /// A client with a different answer size cap (tools that fetch logs or pages).
    pub fn with_limit(deadline: Duration, max_body: usize) -> Caller {
        let mut conn = HttpConnector::new();
        conn.set_nodelay(true);
        conn.set_connect_timeout(Some(deadline));
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .build(conn);
        Caller {
            client,
            deadline,
            max_body,
        }
    }

    /// The per-request deadline.
    pub fn deadline(&self) -> Duration {
        self.deadline
    }

    /// GETs `url` with `query` appended (`?` or `&`); returns the body of a 200 answer and the
    /// time taken.
    pub async fn call(&self, url: &str, query: &str) -> (Result<String, CallError>, Duration) {
        let (res, t) = self.call_raw(url, query).await;
        let res = res.and_then(|(status, body)| match status {
            200 => Ok(body),
            s => Err(CallError::Status(s)),
        });
        (res, t)
    }

    /// Like [`Caller::call`] but returns any status with its body.
    pub async fn call_raw(
        &self,
        url: &str,
        query: &str,
    ) -> (Result<(u16, String), CallError>, Duration) {
        let t0 = Instant::now();
        let sep = if url.contains('?') { '&' } else { '?' };
        let full = format!("{url}{sep}{query}");
        let res = match full.parse::<hyper::Uri>() {
            Ok(uri) if uri.scheme_str() == Some("http") && uri.host().is_some() => {
                match tokio::time::timeout(self.deadline, self.fetch(uri)).await {
                    Ok(r) => r,
                    Err(_) => Err(CallError::Timeout),
                }
            }
            _ => Err(CallError::BadUrl(url.chars().take(200).collect())),
        };
        (res, t0.elapsed())
    }

    async fn fetch(&self, uri: hyper::Uri) -> Result<(u16, String), CallError> {
        let resp = self
            .client
            .get(uri)
            .await
            .map_err(|e| CallError::Connect(e.to_string()))?;
        let status = resp.status().as_u16();
        let body = Limited::new(resp.into_body(), self.max_body)
            .collect()
            .await
            .map_err(|e| CallError::Body(e.to_string()))?
            .to_bytes();
        let body =
            String::from_utf8(body.to_vec()).map_err(|_| CallError::Body("not UTF-8".into()))?;
        Ok((status, body))
    }
}
