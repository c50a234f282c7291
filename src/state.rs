//! The state every request shares: configuration, metrics, the rules pool, the memory
//! semaphores and the drain flags. No encounter data: the service is stateless.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::http::HeaderValue;
use tokio::sync::watch;

use crate::config::Config;
use crate::metrics::{Budgets, Metrics};
use crate::pool;

/// Shared by every request; holds no encounter data (the service is stateless). One `Arc`:
/// the state is cloned for every middleware and extractor of every request, and one
/// reference count costs less than seven.
#[derive(Debug, Clone)]
pub struct AppState(Arc<Shared>);

/// What [`AppState`] shares (its fields are reached through `Deref`: `state.config`).
#[derive(Debug)]
pub struct Shared {
    /// Configuration.
    pub config: Arc<Config>,
    /// Request metrics.
    pub metrics: Arc<Metrics>,
    /// The bounded pool every question runs on.
    pub pool: Arc<pool::RulesPool>,
    /// Set once shutdown has begun: `/readyz` answers 503.
    pub draining: Arc<AtomicBool>,
    /// Set to `true` at the drain deadline: every question still running is cancelled.
    pub cancel_all: Arc<watch::Sender<bool>>,
    /// Bytes of large answers waiting to be sent (`middleware::answer_memory`).
    pub answer_memory: Arc<tokio::sync::Semaphore>,
    /// Bytes of question bodies being read or worked on (`questions::questions`).
    pub body_memory: Arc<tokio::sync::Semaphore>,
    /// This replica's name, sent as `x-arbiter-instance`.
    pub instance: Arc<str>,
    /// `instance` as a header value (`None` when it is not a valid one), made once.
    pub instance_header: Option<HeaderValue>,
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    /// Fresh state for a configuration.
    pub fn new(config: Config) -> AppState {
        let instance = config.instance_id.clone().unwrap_or_else(hostname);
        AppState(Arc::new(Shared {
            pool: Arc::new(pool::RulesPool::new(
                config.workers(),
                config.queue(),
                std::time::Duration::from_millis(config.queue_wait_ms),
            )),
            answer_memory: Arc::new(tokio::sync::Semaphore::new(config.answer_memory())),
            body_memory: Arc::new(tokio::sync::Semaphore::new(config.body_memory())),
            config: Arc::new(config),
            metrics: Arc::new(Metrics::default()),
            draining: Arc::new(AtomicBool::new(false)),
            cancel_all: Arc::new(watch::Sender::new(false)),
            instance_header: HeaderValue::from_str(&instance).ok(),
            instance: instance.into(),
        }))
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|s| s.trim().to_owned())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "arbiter".to_owned())
}

impl AppState {
    /// The memory budgets now: what the bodies and the large answers hold of theirs.
    pub fn budgets(&self) -> Budgets {
        let held = |total: usize, free: usize| total.saturating_sub(free) as u64;
        let (bodies, answers) = (self.config.body_memory(), self.config.answer_memory());
        Budgets {
            bodies: held(bodies, self.body_memory.available_permits()),
            bodies_max: bodies as u64,
            answers: held(answers, self.answer_memory.available_permits()),
            answers_max: answers as u64,
        }
    }
}
